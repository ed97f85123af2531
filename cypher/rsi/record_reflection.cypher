// purpose: one reflection: the reflector's raw reply (or the rules reflector's summary)
// params: $reflection (map of Reflection properties)
// returns: id of the reflection
CREATE (r:Reflection)
SET r = $reflection
RETURN r.id AS id
