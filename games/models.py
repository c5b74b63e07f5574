# RulePreset, Game, Seat and the move log arrive here (see DESIGN.md).
