// purpose: wait until every eventually consistent full-text index has caught up with what was
//   committed (tests and tools that write text and search it at once)
// params: none
// returns: nothing
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
