// purpose: the open episode of a session, started if there is none: one open episode per
//   session, enforced by the (agent_id, open_session) uniqueness constraint, so two turns at
//   once cannot start two
// params: $agent_id, $session_id, $episode (map of Episode properties for a new episode,
//   open_session included)
// returns: episode (map of the Episode's properties), created (true when this call started it)
MERGE (e:Episode {agent_id: $agent_id, open_session: $session_id})
  ON CREATE SET e += $episode
RETURN properties(e) AS episode, e.id = $episode.id AS created
