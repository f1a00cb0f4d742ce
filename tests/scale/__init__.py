"""Several daphne processes on real PostgreSQL and Redis: delivery, resync and faults."""
