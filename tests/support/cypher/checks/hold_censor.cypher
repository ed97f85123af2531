// purpose: test check: take a censor's write lock (run in a transaction the test holds open)
// params: $censor_id
// returns: one row: id
MATCH (c:Censor {id: $censor_id})
SET c.held_by_test = true
REMOVE c.held_by_test
RETURN c.id AS id
