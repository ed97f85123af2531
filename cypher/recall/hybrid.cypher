// purpose: hybrid recall in one round trip: the agent's nodes found by words (the recall_words
//   and turn_words full-text indexes, asked for this agent's hits only), by meaning (the embedded_embedding
//   vector index, or the agent's own vectors compared one by one) and by graph proximity
//   (decisions about the same file, then the same path pattern, newest first; the lessons
//   learned from them; the commits that touched the file, newest first; the episodes of the
//   same session). Words also ask commit_words (git history: Commit subject, body, paths). Each list is best first; the caller
//   fuses them (reciprocal rank fusion). Recall by meaning: a small agent's nearest nodes are
//   found in memory by the caller (cognition.recall.agent_vectors) and given as $near, so a
//   small agent beside a big one never reads the big one's hits; otherwise the vector index
//   is asked for $k candidates (over-fetched by the caller in proportion to the agent's share
//   of the index) and they are filtered by agent and model. Without $vector, the vector of
//   the File at $path is the query (the daemon's "similar by meaning": no embedding on the
//   decision loop), and that file is left out. With $useful_only, decisions that did nothing
//   (a WAIT, an INVESTIGATE, an ACT never executed or only in a dry run: not Consequential)
//   are left out of every method before its limit, so churn cannot crowd out what helps;
//   words never find them (recall_words indexes Consequential decisions only, 021). Each
//   item's text is the one fragment fragments/recall_text (what the vector job embeds
//   too); an item without text is left out. A fact's context (the fact remembered just
//   before it from the same source in the same session, learn/add_fact) comes with it:
//   recall_words indexes the two together (text_in_context), so words may find a fact by
//   its context.
// params: $agent_id, $query (Lucene query from graph.store.lucene.agent_query, or ""),
//   $vector (list of floats, or null), $path, $path_pattern, $session_id (each may be null),
//   $model, $near (list of {eid, score}, or null), $k, $words_limit, $meaning_limit,
//   $graph_limit, $useful_only (boolean)
// returns: one row: words, meaning, graph (lists of maps {label, id, at, path, score, text,
//   context (a fact's, or null)};
//   a graph item's score is minus its rank)
// mode: read
CALL () {
  CALL () {
    WITH 1 AS one WHERE $query <> "" AND $words_limit > 0
    CALL db.index.fulltext.queryNodes("recall_words", $query, {limit: $words_limit})
      YIELD node AS n, score
    RETURN n, score
    UNION ALL
    WITH 1 AS one WHERE $query <> "" AND $words_limit > 0
    CALL db.index.fulltext.queryNodes("turn_words", $query, {limit: $words_limit})
      YIELD node AS n, score
    RETURN n, score
    UNION ALL
    WITH 1 AS one WHERE $query <> "" AND $words_limit > 0
    CALL db.index.fulltext.queryNodes("commit_words", $query, {limit: $words_limit})
      YIELD node AS n, score
    RETURN n, score
  }
  WITH n, score WHERE n.agent_id = $agent_id
    AND NOT ($useful_only AND n:Decision AND NOT n:Consequential)
  WITH n, score ORDER BY score DESC LIMIT $words_limit
  WITH n, score, [l IN labels(n) WHERE l IN ["Decision", "Lesson", "Fact", "Procedure", "Episode", "Heuristic", "Censor", "Turn", "Commit", "File"]][0] AS label
  WITH n, score, label, {{ fragments/recall_text }} AS text
  WHERE text <> ""
  RETURN collect({label: label, id: n.id, at: toString(n.at), path: n.path, score: score,
                  text: text, context: n.context}) AS words
}
CALL () {
  CALL () {
    WITH 1 AS one WHERE $near IS NOT NULL AND $meaning_limit > 0
    UNWIND $near AS hit
    MATCH (n)
    WHERE elementId(n) = hit.eid AND n.agent_id = $agent_id
    RETURN n, hit.score AS score
    UNION ALL
    WITH 1 AS one WHERE $near IS NULL AND $meaning_limit > 0
    OPTIONAL CALL () {
      WITH 1 AS one WHERE $vector IS NULL AND $path IS NOT NULL
      MATCH (f:File)
      USING INDEX SEEK f:File(agent_id, path)
      WHERE f.agent_id = $agent_id AND f.path = $path AND f.embedding_model = $model
      RETURN f.embedding AS file_vector
    }
    WITH coalesce($vector, file_vector) AS query_vector
    WHERE query_vector IS NOT NULL
    CALL db.index.vector.queryNodes("embedded_embedding", $k, query_vector) YIELD node AS n, score
    WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model AND NOT n:Case
    RETURN n, score
  }
  WITH n, score WHERE ($path IS NULL OR $vector IS NOT NULL OR NOT (n:File AND n.path = $path))
    AND NOT ($useful_only AND n:Decision AND NOT n:Consequential)
  WITH n, score ORDER BY score DESC LIMIT $meaning_limit
  WITH n, score, [l IN labels(n) WHERE l IN ["Decision", "Lesson", "Fact", "Procedure", "Episode", "Heuristic", "Censor", "Turn", "Commit", "File"]][0] AS label
  WITH n, score, label, {{ fragments/recall_text }} AS text
  WHERE text <> ""
  RETURN collect({label: label, id: n.id, at: toString(n.at), path: n.path, score: score,
                  text: text, context: n.context}) AS meaning
}
CALL () {
  CALL () {
    WITH 1 AS one WHERE $graph_limit > 0 AND $path IS NOT NULL
    MATCH (d:Decision)
    USING INDEX SEEK d:Decision(agent_id, path, at)
    WHERE d.agent_id = $agent_id AND d.path = $path AND d.at IS NOT NULL
      AND coalesce(d.status, "") <> "superseded"
      AND NOT ($useful_only AND NOT d:Consequential)
    WITH d ORDER BY d.agent_id DESC, d.path DESC, d.at DESC LIMIT $graph_limit
    RETURN d, 0 AS grp
    UNION ALL
    WITH 1 AS one WHERE $graph_limit > 0 AND $path_pattern IS NOT NULL
    MATCH (d:Decision)
    USING INDEX SEEK d:Decision(agent_id, path_pattern, at)
    WHERE d.agent_id = $agent_id AND d.path_pattern = $path_pattern AND d.at IS NOT NULL
      AND coalesce(d.status, "") <> "superseded"
      AND NOT ($useful_only AND NOT d:Consequential)
    WITH d ORDER BY d.agent_id DESC, d.path_pattern DESC, d.at DESC LIMIT $graph_limit
    RETURN d, 1 AS grp
  }
  WITH d, min(grp) AS grp
  ORDER BY grp, d.at DESC
  LIMIT $graph_limit
  WITH collect(d) AS decisions
  CALL () {
    WITH 1 AS one WHERE $graph_limit > 0 AND $path IS NOT NULL
    MATCH (f:File)
    USING INDEX SEEK f:File(agent_id, path)
    WHERE f.agent_id = $agent_id AND f.path = $path
    MATCH (c:Commit)-[:TOUCHED]->(f)
    WITH c ORDER BY c.authored_at DESC LIMIT $graph_limit
    RETURN collect(c) AS commits
  }
  CALL (decisions) {
    UNWIND decisions AS d
    MATCH (l:Lesson)-[:LEARNED_FROM]->(d)
    WITH l ORDER BY l.at DESC LIMIT $graph_limit
    RETURN collect(l) AS lessons
  }
  CALL () {
    WITH 1 AS one WHERE $graph_limit > 0 AND $session_id IS NOT NULL
    MATCH (e:Episode)
    USING INDEX SEEK e:Episode(agent_id, session_id)
    WHERE e.agent_id = $agent_id AND e.session_id = $session_id
    WITH e ORDER BY e.at DESC LIMIT $graph_limit
    RETURN collect(e) AS episodes
  }
  WITH decisions + lessons + commits + episodes AS near
  UNWIND range(0, size(near) - 1) AS rank
  WITH near[rank] AS n, -rank AS score
  WITH n, score, [l IN labels(n) WHERE l IN ["Decision", "Lesson", "Fact", "Procedure", "Episode", "Heuristic", "Censor", "Turn", "Commit", "File"]][0] AS label
  WITH n, score, label, {{ fragments/recall_text }} AS text
  WHERE text <> ""
  RETURN collect({label: label, id: n.id, at: toString(n.at), path: n.path, score: score,
                  text: text, context: n.context}) AS graph
}
RETURN words, meaning, graph
