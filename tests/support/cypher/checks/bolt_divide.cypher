// purpose: test check: a statement that fails at run time (division by $by when it is 0)
// params: $by
// returns: one row: quotient
RETURN 1 / $by AS quotient
