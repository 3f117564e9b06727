"""The Castle Ravenloft rules engine: plain Python, all chance from the RNG kept in the state.

`game.Engine` is the door (`new_game`, `apply`), `legal.legal_actions` lists what a player may do
and `view.view` hides what nobody may see. The package imports nothing here, so its modules stay
layered: base (`data`, `state`, `geometry`, `rulesets`), core rules (`heroes`, `explore`, `combat`,
`tactics`, `encounters`, `treasure`, `villain`, `turns`), the adventures (`adventures/`), then the
front (`game`, `legal`, `view`)."""
