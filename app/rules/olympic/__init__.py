"""Operation Olympic (SPI, 1974): solitaire against the programmed Japanese. The data and its loader
(`data_load`); the engine is planned in docs/olympic-engine-plan.md."""
