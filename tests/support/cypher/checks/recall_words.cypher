// purpose: test check: the nodes the recall_words full-text index finds for a query
// params: $agent_id, $query (a Lucene query, graph.store.lucene.agent_query)
// returns: id and labels per node found
// mode: read
CALL db.index.fulltext.queryNodes("recall_words", $query) YIELD node
WHERE node.agent_id = $agent_id
RETURN node.id AS id, labels(node) AS labels
