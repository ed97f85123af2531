// purpose: one episode by id, open or ended
// params: $agent_id, $episode_id
// returns: episode (map of the Episode's properties); no row when there is none
// mode: read
MATCH (e:Episode {id: $episode_id})
WHERE e.agent_id = $agent_id
RETURN properties(e) AS episode
