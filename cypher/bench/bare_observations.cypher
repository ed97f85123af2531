// purpose: the benchmark's ceiling: a bare UNWIND ... CREATE of the same observation rows that
//   observe/record_observations writes, with no MERGE, no File nodes and no idempotency
// params: $rows: list of maps as for observe/record_observations
// returns: written (number of rows)
UNWIND $rows AS row
CREATE (o:Observation)
SET o.id = row.id, o.agent_id = row.agent_id, o.at = row.at, o.type = row.type,
    o.urgency = row.urgency, o.category = row.category, o.path = row.path,
    o.path_pattern = row.path_pattern, o.content_hash = row.content_hash, o.size = row.size,
    o.mtime = row.mtime, o.processed = row.processed, o.metadata = row.metadata
RETURN count(*) AS written
