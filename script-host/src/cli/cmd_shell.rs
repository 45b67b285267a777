//! `pallet completions SHELL` (clap_complete) and `pallet man` (clap_mangen): generated from the
//! same clap definition as the parser, so they cannot drift from the real arguments.

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write one page per command (`pallet.1`, `pallet-run.1`, …) into DIR instead of printing
    /// the top page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// `pallet completions SHELL`: the script for `cmd` (the parser's definition) on stdout.
pub fn completions(args: CompletionsArgs, mut cmd: clap::Command) -> i32 {
    clap_complete::generate(args.shell, &mut cmd, "pallet", &mut std::io::stdout());
    0
}

/// `pallet man [--out DIR]`: the roff page of `cmd` (the parser's definition) on stdout, or every
/// page into DIR.
pub fn man(args: ManArgs, cmd: clap::Command) -> i32 {
    match args.out {
        None => {
            let mut out = Vec::new();
            if let Err(e) = clap_mangen::Man::new(cmd).render(&mut out) {
                eprintln!("pallet man: {e}");
                return 1;
            }
            use std::io::Write as _;
            let _ = std::io::stdout().write_all(&out);
            0
        }
        Some(dir) => {
            let written =
                std::fs::create_dir_all(&dir).and_then(|()| clap_mangen::generate_to(cmd, &dir));
            match written {
                Ok(()) => {
                    println!("wrote man pages to {}", dir.display());
                    0
                }
                Err(e) => {
                    eprintln!("pallet man: {}: {e}", dir.display());
                    2
                }
            }
        }
    }
}
