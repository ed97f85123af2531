// purpose: the latest episodes (one per daemon run or chat session), with what they taught
// params: $agent_id, $limit
// returns: id, started_at, ended_at, outcome, summary, lessons, decisions (how many decisions
//   were made in it)
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (e:Episode)
WHERE e.agent_id = $agent_id AND e.at IS NOT NULL
WITH e ORDER BY e.at DESC LIMIT toInteger($limit)
RETURN e.id AS id, e.started_at AS started_at, e.ended_at AS ended_at, e.outcome AS outcome,
       e.summary AS summary, e.lessons AS lessons,
       COUNT { (e)<-[:IN_EPISODE]-(:Decision) } AS decisions
ORDER BY started_at DESC
