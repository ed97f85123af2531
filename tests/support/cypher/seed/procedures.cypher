// purpose: test fixture: Procedure nodes, with core_patterns joined for the full-text index
// params: $agent_id, $rows (maps {id, at, name, domain, core_patterns})
// returns: id per procedure
UNWIND $rows AS row
CREATE (p:Procedure)
SET p = row, p.agent_id = $agent_id,
    p.core_patterns_text = reduce(s = "", x IN row.core_patterns | s + x + "\n")
RETURN p.id AS id
