//! The rule flags of every command, made from the game's own description ([`Game::RULE_SETS`],
//! [`Game::OPTIONS`]): `--rules NAME` and one `--OPTION on|off` per rule option.

use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use nana_front::Game;

/// `--rules`' value of `solve` that makes every rule set.
pub const ALL: &str = "all";

/// The switches' values.
const SWITCH: [&str; 2] = ["on", "off"];

fn options_args<G: Game>(cmd: Command) -> Command {
    cmd.args(G::OPTIONS.iter().map(|o| {
        Arg::new(o.name)
            .long(o.name)
            .value_name("SWITCH")
            .help(o.help)
            .value_parser(PossibleValuesParser::new(SWITCH))
            .default_value(if o.default { "on" } else { "off" })
    }))
}

fn options<G: Game>(m: &ArgMatches) -> Vec<bool> {
    G::OPTIONS.iter().map(|o| m.get_one::<String>(o.name).map_or(o.default, |v| v == "on")).collect()
}

fn rule_set_values<G: Game>() -> Vec<PossibleValue> {
    G::RULE_SETS.iter().map(|r| PossibleValue::new(r.name).help(r.help)).collect()
}

/// The rules one command works on: `--rules` and the options.
#[derive(Debug)]
pub struct RuleFlags<G: Game> {
    pub rules: G::Rules,
}

impl<G: Game> FromArgMatches for RuleFlags<G> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let name = m.get_one::<String>("rules").map_or(G::RULE_SETS[0].name, String::as_str);
        let base = G::RULE_SETS.iter().find(|r| r.name == name).unwrap_or(&G::RULE_SETS[0]).rules;
        Ok(RuleFlags { rules: G::with_options(base, &options::<G>(m)) })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<G: Game> Args for RuleFlags<G> {
    fn augment_args(cmd: Command) -> Command {
        let rules = Arg::new("rules")
            .long("rules")
            .value_name("RULES")
            .help(G::RULES_HELP)
            .value_parser(PossibleValuesParser::new(rule_set_values::<G>()))
            .default_value(G::RULE_SETS[0].name);
        options_args::<G>(cmd.arg(rules))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// The rule sets `solve` makes: `--rules NAME` or `--rules all`, and the options.
#[derive(Debug)]
pub struct SolveFlags<G: Game> {
    pub rule_sets: Vec<G::Rules>,
    game: PhantomData<G>,
}

impl<G: Game> FromArgMatches for SolveFlags<G> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let options = options::<G>(m);
        let name = m.get_one::<String>("rules").map(String::as_str);
        let rule_sets = G::RULE_SETS
            .iter()
            .filter(|r| match name {
                Some(ALL | "both") => true,
                Some(name) => r.name == name,
                None => G::SOLVE_ALL || r.name == G::RULE_SETS[0].name,
            })
            .map(|r| G::with_options(r.rules, &options))
            .collect();
        Ok(SolveFlags { rule_sets, game: PhantomData })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<G: Game> Args for SolveFlags<G> {
    fn augment_args(cmd: Command) -> Command {
        let mut values = rule_set_values::<G>();
        // `both` reads as `all` too.
        values.push(PossibleValue::new(ALL).help("Every rule set.").alias("both"));
        let default = if G::SOLVE_ALL { ALL } else { G::RULE_SETS[0].name };
        let rules = Arg::new("rules")
            .long("rules")
            .value_name("RULES")
            .help("Rule set(s) to solve.")
            .value_parser(PossibleValuesParser::new(values))
            .default_value(default);
        options_args::<G>(cmd.arg(rules))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
