"""A team's decisions as statements (issue 58): found in what was said and in commit messages,
kept with their provenance, superseded by a later decision on the same subject."""
