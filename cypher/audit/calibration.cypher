// purpose: confidence calibration: for each confidence bucket (0.0-0.1 … 0.9-1.0) how many
//   learned decisions were taken with a confidence in it, how many succeeded, the success
//   rate and the mean confidence; a well calibrated agent's success rate tracks the bucket.
//   Empty buckets are listed with count 0 and a null rate.
// params: $agent_id
// returns: bucket (0-9), lower, upper, count, successes, success_rate (or null),
//   mean_confidence (or null), ten rows in bucket order
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.calibration_bucket IS NOT NULL
WITH d.calibration_bucket AS bucket, count(*) AS n,
     sum(CASE WHEN d.outcome_success THEN 1 ELSE 0 END) AS successes,
     avg(d.calibration_confidence) AS mean
WITH collect({bucket: bucket, n: n, successes: successes, mean: mean}) AS found
UNWIND range(0, 9) AS b
WITH b, [r IN found WHERE r.bucket = b] AS hit
WITH b, CASE WHEN size(hit) = 0 THEN null ELSE hit[0] END AS r
RETURN b AS bucket, b / 10.0 AS lower, (b + 1) / 10.0 AS upper,
       coalesce(r.n, 0) AS count, coalesce(r.successes, 0) AS successes,
       CASE WHEN r IS NULL THEN null ELSE toFloat(r.successes) / r.n END AS success_rate,
       r.mean AS mean_confidence
ORDER BY b
