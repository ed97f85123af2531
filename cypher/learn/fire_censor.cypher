// purpose: a censor fired (what it warns against happened again): fire_count + 1,
//   last_fired_at, and a warn censor escalates to block once fire_count reaches $block_after
// params: $agent_id, $censor_id, $block_after (int), $now (datetime)
// returns: censor (map of the Censor's properties after the update); no row when there is none
MATCH (c:Censor {id: $censor_id})
WHERE c.agent_id = $agent_id
WITH c, coalesce(c.fire_count, 0) + 1 AS fires
SET c.fire_count = fires,
    c.last_fired_at = $now,
    c.severity = CASE WHEN fires >= $block_after THEN "block" ELSE c.severity END
RETURN properties(c) AS censor
