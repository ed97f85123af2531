// purpose: a data migration: the values and properties RSI stored in British spelling before
//   the project spelled American (practice, crystallize) are rewritten, on every agent: a
//   desire's status practised -> practiced and unpractisable -> unpracticable, a bootstrap
//   desire's description "Practise ..." -> "Practice ...", and an RSICycle's counts
//   practised -> practiced and crystallised -> crystallized (a property renamed, its value
//   kept; a node that somehow holds both keeps the new one) and the reason a cycle did not
//   practise ("no language model to practise with"), so the report counts old and new
//   reasons together. Model-written text (a reflection's desires) is left as written. Each
//   statement matches only what is still spelled the old way, so a migration cut half way
//   is run again and a second run changes nothing. Run once, so it reads the labels whole.
// params: none
// returns: nothing
MATCH (d:Desire) WHERE d.status = 'practised' SET d.status = 'practiced';
MATCH (d:Desire) WHERE d.status = 'unpractisable' SET d.status = 'unpracticable';
MATCH (d:Desire) WHERE d.origin = 'bootstrap' AND d.description STARTS WITH 'Practise '
  SET d.description = 'Practice ' + substring(d.description, 9);
MATCH (c:RSICycle) WHERE c.practised IS NOT NULL
  SET c.practiced = coalesce(c.practiced, c.practised) REMOVE c.practised;
MATCH (c:RSICycle) WHERE c.crystallised IS NOT NULL
  SET c.crystallized = coalesce(c.crystallized, c.crystallised) REMOVE c.crystallised;
MATCH (c:RSICycle) WHERE c.skipped CONTAINS 'practise'
  SET c.skipped = replace(c.skipped, 'practise', 'practice');
