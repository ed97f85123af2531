// purpose: indexes that let recall read past decisions newest first straight from an index:
//   each ends with "at", so "ORDER BY agent_id, <key>, at DESC LIMIT n" reads n entries
//   instead of sorting every decision about a busy file, folder or kind. The shorter
//   indexes of 002 and 004 stay for the queries that filter without "at".
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX decision_agent_path_at IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.path, n.at);
CREATE INDEX decision_agent_path_pattern_at IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.path_pattern, n.at);
CREATE INDEX decision_agent_kind_at IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.category, n.observation_type, n.at);
