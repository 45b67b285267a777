fn main() {
    std::process::exit(pallet_script_host::cli::main());
}
