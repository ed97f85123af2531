"""The composition root: builds every part of Nous from the settings and runs the jobs."""
