// purpose: the clause that creates one observation row (bound as `row`) as an Observation node,
//   written once for every statement that writes observations (observe/record_observations,
//   observe/record_observations_checked, observe/record_file_observations)
// params: none of its own; in scope where it is included: row (a map as for
//   observe/record_observations)
// returns: clauses ending with o and row in scope (included by {{ fragments/observation_node }};
//   never run alone)
// note: CREATE, not MERGE: an id already stored breaks the unique constraint and the writer runs
//   the chunk again through observe/record_observations_checked, which leaves it out.
CREATE (o:Observation)
SET o.id = row.id, o.agent_id = row.agent_id, o.at = row.at, o.type = row.type,
    o.urgency = row.urgency, o.category = row.category, o.path = row.path,
    o.path_pattern = row.path_pattern, o.content_hash = row.content_hash, o.size = row.size,
    o.mtime = row.mtime, o.processed = row.processed, o.metadata = row.metadata,
    o.caused_by = row.caused_by
