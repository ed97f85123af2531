// purpose: the test files that runs started by a change to any of $paths failed before, the
//   most often broken first, then the most recently: what the learned test order runs first
// params: $agent_id, $paths (root-relative paths of the changed files), $limit
// returns: path (a test file), runs (how many failed runs broke it after such a change),
//   last (datetime of the latest)
// note: seeks the unique (agent_id, path) index of File, then follows relationships
// mode: read
MATCH (c:File)
WHERE c.agent_id = $agent_id AND c.path IN $paths
MATCH (c)<-[:AFTER_CHANGE]-(x:Execution)-[b:BROKE]->(t:File)
WITH t.path AS path, count(DISTINCT x) AS runs, max(b.at) AS last
RETURN path, runs, last
ORDER BY runs DESC, last DESC, path
LIMIT $limit
