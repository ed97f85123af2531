// purpose: one entry of the audit stream: an Event with its type and data (a JSON string)
// params: $event (map of Event properties: id, agent_id, at, type, data, session_id or absent)
// returns: id of the event
CREATE (e:Event)
SET e = $event
RETURN e.id AS id
