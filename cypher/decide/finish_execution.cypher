// purpose: record how an execution ended (return code, success, output excerpt, failure type,
//   verdict …); properties not in $result are left as they are
// params: $execution_id, $result (map of Execution properties)
// returns: id of the execution
MATCH (x:Execution {id: $execution_id})
SET x += $result
RETURN x.id AS id
