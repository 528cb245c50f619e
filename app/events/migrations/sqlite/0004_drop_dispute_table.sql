-- Disputes are events now (core.DisputeRaised / core.DisputeAnswered); the workflow table is no longer used.
DROP TABLE IF EXISTS pbem_disputes;
