// purpose: test check: a statement that keeps Neo4j busy for a while (a connection cut meanwhile)
// params: $n
// returns: one row: total
UNWIND range(1, $n) AS x
WITH x WHERE x % 7 = 0
RETURN sum(x) AS total
