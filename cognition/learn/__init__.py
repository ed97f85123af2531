"""Learn: what outcomes teach: pattern statistics, calibration, lessons, censors, episodes."""
