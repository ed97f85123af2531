// purpose: test check: one of each kind of value a query returns (node, relationship, temporal)
// params: $agent_id, $at (a datetime)
// returns: one row: node, relationship, at, local_at, day, times, numbers, nested, nothing
CREATE (a:BoltCheck {agent_id: $agent_id, name: 'ä ☃ 𝄞', at: $at})
CREATE (b:BoltCheck {agent_id: $agent_id, name: 'b', weights: [1.5, -2.0]})
CREATE (a)-[r:CHECKED {since: $at, n: 9007199254740993}]->(b)
RETURN a AS node, r AS relationship, a.at AS at, localdatetime({year: 2026, month: 11, day: 27, hour: 1, minute: 0, second: 0, nanosecond: 123456789}) AS local_at,
       date('2026-02-28') AS day, [time('12:34:56.789+02:00'), localtime('23:59:59')] AS times,
       [0, -1, -16, -17, 127, 128, -129, 32768, -2147483649, 2.5, true, false] AS numbers,
       {list: [{deep: ['x', null]}], text: 'x' + $agent_id} AS nested, null AS nothing,
       datetime({epochSeconds: 1764200000, nanosecond: 5000, timezone: '+05:30'}) AS offset_at,
       datetime({year: 1969, month: 7, day: 20, timezone: 'Europe/Paris'}) AS zoned_at
