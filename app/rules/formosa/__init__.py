"""Operation Causeway: Formosa 1944 (Decision Games, 2022): the data and its loader (`data_load`;
docs/formosa-data.md, rulings docs/rulings/formosa.md). The engine is planned in docs/formosa-engine-plan.md;
until it exists this package declares no `GAME`, so the catalog does not offer it to players."""
