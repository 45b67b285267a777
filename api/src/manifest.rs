//! `manifest.json` parsing: the Lua engine's api 1 and api 2 fields (2 a superset of 1), unknown
//! fields tolerated, plus `capabilities` for Rhai mods.
//!
//! Required fields and malformed values are always errors. *Vocabulary* violations (an unknown
//! `profile`, `permissions` entry, `games` token or capability) are errors under api 2 and
//! attributed warnings under api 1, as in the Lua engine.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value as Json;

use crate::catalog::common::GameVersion;
use crate::semver::Range;

/// The mod API this engine provides (`Version.modApi` in the Lua engine).
pub const MOD_API: u32 = 2;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    #[default]
    Content,
    Overhaul,
    TotalConversion,
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Content => "content",
            Profile::Overhaul => "overhaul",
            Profile::TotalConversion => "total_conversion",
        }
    }
    fn parse(s: &str) -> Option<Profile> {
        [
            Profile::Content,
            Profile::Overhaul,
            Profile::TotalConversion,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}

/// Legacy `permissions` vocabulary.
pub const PERMISSIONS: &[&str] = &[
    "network",
    "filesystem",
    "engine_internals",
    "steps",
    "background",
    "compute",
];

/// A capability a Rhai mod declares to receive a handle (`"capabilities": [...]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    Hooks,
    Events,
    Content,
    World,
    /// Buttons pressed at safe points (`input.tap/press/release`).
    Input,
    Checkpoints,
    Datasets,
    Save,
    Storage,
    Options,
    Log,
}

impl Capability {
    pub const ALL: [Capability; 11] = [
        Capability::Hooks,
        Capability::Events,
        Capability::Content,
        Capability::World,
        Capability::Input,
        Capability::Checkpoints,
        Capability::Datasets,
        Capability::Save,
        Capability::Storage,
        Capability::Options,
        Capability::Log,
    ];

    /// Granted without declaring: harmless per-mod services and read-only data
    /// (`datasets` needs no permission per RFC 0015). Everything that changes game behaviour or
    /// reads/writes game state must be declared.
    pub const DEFAULT: [Capability; 5] = [
        Capability::Events,
        Capability::Datasets,
        Capability::Save,
        Capability::Options,
        Capability::Log,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Hooks => "hooks",
            Capability::Events => "events",
            Capability::Content => "content",
            Capability::World => "world",
            Capability::Input => "input",
            Capability::Checkpoints => "checkpoints",
            Capability::Datasets => "datasets",
            Capability::Save => "save",
            Capability::Storage => "storage",
            Capability::Options => "options",
            Capability::Log => "log",
        }
    }

    pub fn parse(s: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// Game tokens the `games` field may name (ours and other engines').
const GAME_IDS: &[&str] = &[
    "red",
    "blue",
    "yellow",
    "gold",
    "silver",
    "crystal",
    "firered",
    "leafgreen",
    "ruby",
    "sapphire",
    "emerald",
];

fn expand_game_token(token: &str) -> Option<&'static [&'static str]> {
    Some(match token {
        "all" => GAME_IDS,
        "gen1" => &["red", "blue", "yellow"],
        "gen2" => &["gold", "silver", "crystal"],
        "gen3" => &["firered", "leafgreen", "ruby", "sapphire", "emerald"],
        "frlg" => &["firered", "leafgreen"],
        "rse" => &["ruby", "sapphire", "emerald"],
        _ => {
            let i = GAME_IDS.iter().position(|g| *g == token)?;
            std::slice::from_ref(&GAME_IDS[i])
        }
    })
}

/// A dependency entry: `"id"`, `"id@range"`, `"id#owner/repo"`, `"id@range#owner/repo"`, or a
/// table `{id, range|version, games, github|repo, game_version}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DependencySpec {
    pub id: String,
    pub range: Option<String>,
    pub games: Option<BTreeSet<String>>,
    pub github: Option<String>,
}

/// A parsed manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    pub id: String,
    pub name: String,
    pub version: String,
    pub entry: String,
    pub api: u32,
    /// `api >= 2`: vocabulary violations are errors.
    pub strict: bool,
    pub profile: Profile,
    pub permissions: BTreeSet<String>,
    /// Normalised game ids this mod targets (absent `games` = the Gen 1 games; legacy
    /// `gen2compat: true` adds the Gen 2 games).
    pub games: BTreeSet<String>,
    pub gen2compat: bool,
    pub game_version: Option<String>,
    pub priority: f64,
    pub dependencies: Vec<DependencySpec>,
    pub optional_dependencies: Vec<DependencySpec>,
    /// `conflicts` and its alias `incompatible`, merged first-wins.
    pub conflicts: Vec<String>,
    pub category: String,
    pub description: Option<String>,
    pub github: Option<String>,
    pub experimental: bool,
    pub language: bool,
    pub affects_link: bool,
    pub log_url: Option<String>,
    pub options_schema: Option<String>,
    pub force_enable_env: Option<String>,
    /// Declared capabilities (`None` when the field is absent).
    pub capabilities: Option<BTreeSet<Capability>>,
    /// The original JSON object.
    pub raw: Json,
}

impl Manifest {
    /// Does this mod target `version`?
    pub fn targets(&self, version: GameVersion) -> bool {
        self.games.contains(version.as_str())
    }

    /// The capabilities this mod receives. Rhai mods: the defaults plus what they declare.
    /// Legacy Lua mods (no `capabilities` field, `.lua` entry) keep the whole legacy API.
    pub fn granted_capabilities(&self) -> BTreeSet<Capability> {
        match &self.capabilities {
            None if self.entry.ends_with(".lua") => Capability::ALL.into_iter().collect(),
            declared => {
                let mut set: BTreeSet<Capability> = Capability::DEFAULT.into_iter().collect();
                if let Some(d) = declared {
                    set.extend(d.iter().copied());
                }
                set
            }
        }
    }
}

/// A manifest error pointing at the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "manifest.json: {}", self.message)
        } else {
            write!(f, "manifest.json: {}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ManifestError {}

/// A successful parse with its (api 1) warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedManifest {
    pub manifest: Manifest,
    pub warnings: Vec<ManifestError>,
}

fn err(field: &str, message: impl Into<String>) -> ManifestError {
    ManifestError {
        field: field.to_owned(),
        message: message.into(),
    }
}

/// The longest mod id accepted (ids name folders, bus owners and log prefixes; a megabyte id
/// would be printed on every log line of the mod).
pub const MAX_MOD_ID_LEN: usize = 64;

/// Is `id` a valid mod id (`^[A-Za-z0-9_-]+$`, at most [`MAX_MOD_ID_LEN`] bytes)?
pub fn valid_mod_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_MOD_ID_LEN
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A relative path that cannot climb out of the mod folder.
pub fn safe_relative_path(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && !path.contains(':')
        && !path.chars().any(char::is_control)
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// Strip control characters other than newline/tab from display strings.
fn scrub(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect()
}

struct Reader<'a> {
    obj: &'a serde_json::Map<String, Json>,
    strict: bool,
    warnings: Vec<ManifestError>,
}

impl Reader<'_> {
    /// A vocabulary violation: error under api 2, warning under api 1.
    fn vocabulary(&mut self, field: &str, message: String) -> Result<(), ManifestError> {
        if self.strict {
            Err(err(field, message))
        } else {
            self.warnings.push(err(field, message));
            Ok(())
        }
    }

    fn required_str(&self, field: &str) -> Result<String, ManifestError> {
        match self.obj.get(field) {
            Some(Json::String(s)) if !s.trim().is_empty() => Ok(scrub(s)),
            Some(Json::String(_)) => Err(err(field, "must not be empty")),
            None | Some(Json::Null) => Err(err(field, "required field missing")),
            Some(_) => Err(err(field, "must be a string")),
        }
    }

    fn opt_str(&self, field: &str) -> Result<Option<String>, ManifestError> {
        match self.obj.get(field) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(scrub(s))),
            Some(_) => Err(err(field, "must be a string")),
        }
    }

    fn opt_bool(&self, field: &str) -> Result<Option<bool>, ManifestError> {
        match self.obj.get(field) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(err(field, "must be a boolean")),
        }
    }

    fn str_list(&self, field: &str) -> Result<Vec<String>, ManifestError> {
        match self.obj.get(field) {
            None | Some(Json::Null) => Ok(Vec::new()),
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Json::String(s) => Ok(s.clone()),
                    _ => Err(err(&format!("{field}[{}]", i + 1), "must be a string")),
                })
                .collect(),
            Some(_) => Err(err(field, "must be a list of strings")),
        }
    }
}

fn normalize_github(s: &str) -> String {
    let s = s.trim().trim_end_matches('/').trim_end_matches(".git");
    let s = s
        .strip_prefix("https://github.com/")
        .or_else(|| s.strip_prefix("http://github.com/"))
        .or_else(|| s.strip_prefix("github.com/"))
        .unwrap_or(s);
    s.to_owned()
}

fn parse_dependency(field: &str, v: &Json) -> Result<DependencySpec, ManifestError> {
    match v {
        Json::String(s) => {
            let (rest, github) = match s.split_once('#') {
                Some((a, b)) => (a, Some(normalize_github(b))),
                None => (s.as_str(), None),
            };
            let (id, range) = match rest.split_once('@') {
                Some((a, b)) => (a, Some(b.to_owned())),
                None => (rest, None),
            };
            if !valid_mod_id(id) {
                return Err(err(field, format!("invalid dependency id {id:?}")));
            }
            if let Some(r) = &range {
                if Range::parse(r).is_none() {
                    return Err(err(field, format!("invalid version range {r:?}")));
                }
            }
            Ok(DependencySpec {
                id: id.to_owned(),
                range,
                games: None,
                github,
            })
        }
        Json::Object(o) => {
            let id = match o.get("id") {
                Some(Json::String(s)) if valid_mod_id(s) => s.clone(),
                _ => return Err(err(&format!("{field}.id"), "must be a valid mod id")),
            };
            let range = match o.get("range").or_else(|| o.get("version")) {
                None | Some(Json::Null) => None,
                Some(Json::String(r)) if Range::parse(r).is_some() => Some(r.clone()),
                Some(_) => return Err(err(&format!("{field}.range"), "must be a version range")),
            };
            let games = match o.get("games") {
                None | Some(Json::Null) => None,
                Some(Json::Array(items)) => {
                    let mut set = BTreeSet::new();
                    for item in items {
                        let Some(tokens) = item.as_str().and_then(expand_game_token) else {
                            return Err(err(&format!("{field}.games"), "unknown game token"));
                        };
                        set.extend(tokens.iter().map(|s| (*s).to_owned()));
                    }
                    Some(set)
                }
                Some(_) => return Err(err(&format!("{field}.games"), "must be a list")),
            };
            let github = o
                .get("github")
                .or_else(|| o.get("repo"))
                .and_then(Json::as_str)
                .map(normalize_github);
            Ok(DependencySpec {
                id,
                range,
                games,
                github,
            })
        }
        _ => Err(err(field, "must be a string or a table")),
    }
}

/// Parse `manifest.json` text.
pub fn parse_manifest(text: &str) -> Result<ParsedManifest, ManifestError> {
    let raw: Json =
        serde_json::from_str(text).map_err(|e| err("", format!("invalid JSON: {e}")))?;
    let Json::Object(obj) = &raw else {
        return Err(err("", "the manifest must be a JSON object"));
    };

    let api = match obj.get("api") {
        None | Some(Json::Null) => 1,
        Some(Json::Number(n)) => match n.as_u64() {
            Some(a @ 1..) if a <= u64::from(MOD_API) => a as u32,
            Some(a @ 1..) => {
                return Err(err(
                    "api",
                    format!("requires mod API {a}; this engine provides {MOD_API}"),
                ))
            }
            _ => return Err(err("api", "must be a positive integer")),
        },
        Some(_) => return Err(err("api", "must be a positive integer")),
    };
    let mut r = Reader {
        obj,
        strict: api >= 2,
        warnings: Vec::new(),
    };

    let id = r.required_str("id")?;
    if id.len() > MAX_MOD_ID_LEN {
        return Err(err(
            "id",
            format!(
                "is {} bytes long; a mod id has at most {MAX_MOD_ID_LEN}",
                id.len()
            ),
        ));
    }
    if !valid_mod_id(&id) {
        return Err(err("id", "must match ^[A-Za-z0-9_-]+$"));
    }
    let name = r.required_str("name")?;
    let version = r.required_str("version")?;
    let entry = r.required_str("entry")?;
    if !safe_relative_path(&entry) {
        return Err(err(
            "entry",
            "must be a relative path inside the mod folder",
        ));
    }

    let profile = match r.opt_str("profile")? {
        None => Profile::Content,
        Some(p) => match Profile::parse(&p) {
            Some(p) => p,
            None => {
                r.vocabulary("profile", format!("unknown profile {p:?}"))?;
                Profile::Content
            }
        },
    };

    let mut permissions = BTreeSet::new();
    for (i, p) in r.str_list("permissions")?.into_iter().enumerate() {
        if PERMISSIONS.contains(&p.as_str()) {
            permissions.insert(p);
        } else {
            r.vocabulary(
                &format!("permissions[{}]", i + 1),
                format!("unknown permission {p:?}"),
            )?;
        }
    }

    let gen2compat_flag = r.opt_bool("gen2compat")?.unwrap_or(false);
    let mut games: BTreeSet<String> = BTreeSet::new();
    let declared_games = r.str_list("games")?;
    if declared_games.is_empty() && !obj.contains_key("games") {
        games.extend(["red", "blue", "yellow"].map(str::to_owned));
    } else {
        for (i, token) in declared_games.iter().enumerate() {
            match expand_game_token(token) {
                Some(ids) => games.extend(ids.iter().map(|s| (*s).to_owned())),
                None => r.vocabulary(
                    &format!("games[{}]", i + 1),
                    format!("unknown game {token:?}"),
                )?,
            }
        }
    }
    if gen2compat_flag {
        games.extend(["gold", "silver", "crystal"].map(str::to_owned));
    }
    let gen2compat =
        games.contains("gold") || games.contains("silver") || games.contains("crystal");

    let game_version = r.opt_str("game_version")?;
    if let Some(range) = &game_version {
        if Range::parse(range).is_none() {
            return Err(err(
                "game_version",
                format!("invalid version range {range:?}"),
            ));
        }
    }

    let priority = match obj.get("priority") {
        None | Some(Json::Null) => 0.0,
        Some(Json::Number(n)) => n
            .as_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(|| err("priority", "must be a finite number"))?,
        Some(_) => return Err(err("priority", "must be a number")),
    };

    let deps = |field: &str| -> Result<Vec<DependencySpec>, ManifestError> {
        match obj.get(field) {
            None | Some(Json::Null) => Ok(Vec::new()),
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| parse_dependency(&format!("{field}[{}]", i + 1), v))
                .collect(),
            Some(_) => Err(err(field, "must be a list")),
        }
    };
    let dependencies = deps("dependencies")?;
    let optional_dependencies = deps("optional_dependencies")?;

    let mut conflicts: Vec<String> = Vec::new();
    for field in ["conflicts", "incompatible"] {
        for (i, c) in r.str_list(field)?.into_iter().enumerate() {
            let id = c.split('@').next().unwrap_or_default().to_owned();
            if !valid_mod_id(&id) {
                return Err(err(&format!("{field}[{}]", i + 1), "must be a mod id"));
            }
            if !conflicts.contains(&id) {
                conflicts.push(id);
            }
        }
    }

    let category = r.opt_str("category")?.unwrap_or_else(|| "OTHER".to_owned());
    let description = r.opt_str("description")?;
    let github = r.opt_str("github")?.map(|g| normalize_github(&g));
    let experimental = r.opt_bool("experimental")?.unwrap_or(false);
    let language = r.opt_bool("language")?.unwrap_or(false);
    let affects_link = r
        .opt_bool("affects_link")?
        .unwrap_or(profile != Profile::Content && !language);

    let log_url = r.opt_str("log_url")?;
    if let Some(url) = &log_url {
        if !url.starts_with("https://") {
            return Err(err("log_url", "must be an https URL"));
        }
        if api >= 2 && !permissions.contains("network") {
            return Err(err("log_url", "requires the \"network\" permission"));
        }
    }
    let options_schema = r.opt_str("options_schema")?;
    if let Some(p) = &options_schema {
        if !safe_relative_path(p) {
            return Err(err(
                "options_schema",
                "must be a relative path inside the mod folder",
            ));
        }
    }
    let force_enable_env = r.opt_str("force_enable_env")?;

    let capabilities = if obj.contains_key("capabilities") {
        let mut set = BTreeSet::new();
        for (i, c) in r.str_list("capabilities")?.into_iter().enumerate() {
            match Capability::parse(&c) {
                Some(cap) => {
                    set.insert(cap);
                }
                None => r.vocabulary(
                    &format!("capabilities[{}]", i + 1),
                    format!("unknown capability {c:?}"),
                )?,
            }
        }
        Some(set)
    } else {
        None
    };

    let warnings = std::mem::take(&mut r.warnings);
    Ok(ParsedManifest {
        manifest: Manifest {
            id,
            name,
            version,
            entry,
            api,
            strict: api >= 2,
            profile,
            permissions,
            games,
            gen2compat,
            game_version,
            priority,
            dependencies,
            optional_dependencies,
            conflicts,
            category,
            description,
            github,
            experimental,
            language,
            affects_link,
            log_url,
            options_schema,
            force_enable_env,
            capabilities,
            raw,
        },
        warnings,
    })
}
