// purpose: the open episode of a session, started if there is none: one open episode per
//   session, enforced by the (agent_id, open_session) uniqueness constraint, so two turns at
//   once cannot start two; an episode started now writes its episode_started Event beside it
// params: $agent_id, $session_id, $episode (map of Episode properties for a new episode,
//   open_session included), $event (map of the Event properties written when it starts)
// returns: episode (map of the Episode's properties), created (true when this call started it)
MERGE (e:Episode {agent_id: $agent_id, open_session: $session_id})
  ON CREATE SET e += $episode
WITH e, e.id = $episode.id AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END | CREATE (ev:Event) SET ev = $event)
RETURN properties(e) AS episode, created
