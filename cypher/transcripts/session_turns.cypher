// purpose: the turns of a Claude Code session with the start of their prompts, newest first:
//   what the utterances read from its transcript are matched to (issue 58)
// params: $agent_id, $session_id, $limit
// returns: id, prompt (the Turn's clipped prompt), at
// mode: read
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id})
RETURN t.id AS id, t.prompt AS prompt, t.at AS at
ORDER BY t.at DESC
LIMIT $limit
