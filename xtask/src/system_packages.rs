//! The Debian/Ubuntu packages `cargo xtask demo` and `cargo xtask test` need beside Rust: Mesa
//! EGL for headless OpenGL, Mesa's software Vulkan driver (lavapipe) for headless wgpu, Xvfb for
//! the game window test, and Python with pip for fetching DXC (only when `python3 -m pip` does
//! not already work).
//!
//! Missing ones (`dpkg -s`) are installed when this runs as root or with passwordless sudo;
//! otherwise the error is the one command to run. The Mesa packages (GL and Vulkan) are also
//! brought to the version Debian has now when an older one is installed, so the tests run on the Mesa a user
//! installing today gets (a newer Mesa once refused a shader an older one let through).
//! Installing always follows an `apt-get update`; otherwise, to keep a warm run fast, the
//! package lists are refreshed only when the last update is more than [`LISTS_MAX_AGE`] old, and
//! comparing versions costs one `apt-cache policy`. Without root an outdated Mesa package is a
//! warning, as is a failed update when nothing is missing (offline); without `dpkg` (not Debian
//! or Ubuntu) this prints what is needed and carries on.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

/// Headless OpenGL: the EGL loader, Mesa's EGL and its drivers.
pub const GL: &[&str] = &["libegl1", "libegl-mesa0", "libgl1-mesa-dri"];

/// Headless wgpu: the Vulkan loader and Mesa's Vulkan drivers (lavapipe, a CPU device), which
/// wgpu prefers to its GL back end.
pub const VULKAN: &[&str] = &["libvulkan1", "mesa-vulkan-drivers"];

/// Whether `package` is kept at Debian's current version (Mesa: a newer one once refused a
/// shader an older one let through).
fn kept_current(package: &str) -> bool {
    GL.contains(&package) || VULKAN.contains(&package)
}

/// The X server the game window test draws into.
pub const XVFB: &str = "xvfb";

/// How old the package lists may be before the Mesa packages' versions are checked against
/// fresh ones.
const LISTS_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// apt leaves this folder's modification time at its last `apt-get update` (the lists
/// themselves keep the servers' dates).
const LISTS_STAMP: &str = "/var/lib/apt/lists/partial";

/// Where the commands run: the machine itself, or for the tests a folder of stand-ins.
struct Host {
    /// `PATH` for every command run (`None`: this process's).
    path: Option<OsString>,
    /// [`LISTS_STAMP`].
    stamp: PathBuf,
    now: SystemTime,
}

impl Host {
    fn real() -> Host {
        Host {
            path: None,
            stamp: PathBuf::from(LISTS_STAMP),
            now: SystemTime::now(),
        }
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        if let Some(path) = &self.path {
            command.env("PATH", path);
        }
        command
    }
}

const INSTALL: [&str; 4] = ["apt-get", "install", "-y", "--no-install-recommends"];

/// Makes sure `wanted` (plus Python and pip when pip does not run) are installed, and the Mesa
/// packages among them ([`GL`], [`VULKAN`]) at Debian's current version.
pub fn ensure(wanted: &[&str]) -> Result<(), String> {
    ensure_on(&Host::real(), wanted)
}

fn ensure_on(host: &Host, wanted: &[&str]) -> Result<(), String> {
    let mut wanted = wanted.to_vec();
    if !succeeds(host, "python3", &["-m", "pip", "--version"]) {
        wanted.extend(["python3", "python3-pip"]);
    }
    if !succeeds(host, "dpkg", &["--version"]) {
        println!(
            "xtask: no dpkg here, so installed packages were not checked; needed (Debian \
             names): {}",
            wanted.join(" ")
        );
        return Ok(());
    }
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|p| !installed(host, p))
        .collect();
    let mesa: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|p| kept_current(p) && !missing.contains(p))
        .collect();
    let Some(how) = privilege(host) else {
        if !missing.is_empty() {
            return Err(format!(
                "missing system packages: {list}; install them with:\n  \
                 sudo apt-get update && sudo {} {list}",
                INSTALL.join(" "),
                list = missing.join(" ")
            ));
        }
        warn_outdated(&outdated(host, &mesa));
        return Ok(());
    };
    // Installing always follows an update; otherwise the lists are refreshed once a day.
    let mut outdated = self::outdated(host, &mesa);
    if !missing.is_empty() || !outdated.is_empty() || !lists_fresh(host) {
        match apt(host, how, &["apt-get", "update", "-qq"]) {
            Ok(()) => outdated = self::outdated(host, &mesa),
            Err(e) if missing.is_empty() => {
                println!("xtask: {e}; the Mesa packages were checked against older package lists");
                warn_outdated(&outdated);
                return Ok(());
            }
            Err(e) => return Err(e),
        }
    }
    let mut install: Vec<&str> = missing.clone();
    install.extend(outdated.iter().map(|o| o.package.as_str()));
    if install.is_empty() {
        return Ok(());
    }
    if !missing.is_empty() {
        println!("xtask: installing {}", missing.join(" "));
    }
    for o in &outdated {
        println!(
            "xtask: upgrading {} {} to Debian's current {}",
            o.package, o.installed, o.candidate
        );
    }
    let mut argv = INSTALL.to_vec();
    argv.extend(&install);
    apt(host, how, &argv)
}

/// A package whose installed version is not the one apt would install now.
#[derive(Debug, PartialEq, Eq)]
struct Outdated {
    package: String,
    installed: String,
    candidate: String,
}

/// The installed `packages` whose version differs from apt's candidate (none when apt-cache
/// cannot be run).
fn outdated(host: &Host, packages: &[&str]) -> Vec<Outdated> {
    if packages.is_empty() {
        return Vec::new();
    }
    let policy = host
        .command("apt-cache")
        .arg("policy")
        .args(packages)
        .env("LC_ALL", "C")
        .stderr(Stdio::null())
        .output();
    match policy {
        Ok(o) if o.status.success() => parse_policy(&String::from_utf8_lossy(&o.stdout)),
        _ => Vec::new(),
    }
}

/// The packages of `apt-cache policy` output (C locale) that are installed at a version other
/// than the candidate.
fn parse_policy(text: &str) -> Vec<Outdated> {
    let mut found = Vec::new();
    let mut package: Option<&str> = None;
    let mut installed: Option<&str> = None;
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            package = Some(line.trim_end_matches(':'));
            installed = None;
        } else if let Some(v) = line.trim().strip_prefix("Installed:") {
            installed = Some(v.trim());
        } else if let Some(v) = line.trim().strip_prefix("Candidate:") {
            let candidate = v.trim();
            if let (Some(p), Some(i)) = (package, installed) {
                if i != "(none)" && candidate != "(none)" && i != candidate {
                    found.push(Outdated {
                        package: p.to_string(),
                        installed: i.to_string(),
                        candidate: candidate.to_string(),
                    });
                }
            }
        }
    }
    found
}

/// Without the rights to upgrade: say what is older than Debian's, and how to upgrade it.
fn warn_outdated(outdated: &[Outdated]) {
    if outdated.is_empty() {
        return;
    }
    let list: Vec<&str> = outdated.iter().map(|o| o.package.as_str()).collect();
    for o in outdated {
        println!(
            "xtask: warning: {} {} is installed, Debian has {}",
            o.package, o.installed, o.candidate
        );
    }
    println!(
        "xtask: the tests run on the installed version; to test on Debian's current one:\n  \
         sudo apt-get update && sudo {} {}",
        INSTALL.join(" "),
        list.join(" ")
    );
}

/// Whether the last `apt-get update` is less than [`LISTS_MAX_AGE`] before `now`.
fn lists_fresh(host: &Host) -> bool {
    let updated = std::fs::metadata(&host.stamp).and_then(|m| m.modified());
    updated.is_ok_and(|t| fresh(t, host.now))
}

fn fresh(updated: SystemTime, now: SystemTime) -> bool {
    now.duration_since(updated)
        .is_ok_and(|age| age < LISTS_MAX_AGE)
}

/// Whether `program args` runs and exits with success (its output discarded).
fn succeeds(host: &Host, program: &str, args: &[&str]) -> bool {
    host.command(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether dpkg has `package` installed (not merely known, or removed with its config kept).
fn installed(host: &Host, package: &str) -> bool {
    host.command("dpkg")
        .args(["-s", package])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("Status: install ok installed"))
}

/// How apt can be run with root's rights here.
#[derive(Clone, Copy)]
enum Privilege {
    Root,
    /// `sudo -n` works: passwordless sudo.
    Sudo,
}

/// Root, passwordless sudo, or `None` when neither.
fn privilege(host: &Host) -> Option<Privilege> {
    let uid = host.command("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() == "0" {
        Some(Privilege::Root)
    } else if succeeds(host, "sudo", &["-n", "true"]) {
        Some(Privilege::Sudo)
    } else {
        None
    }
}

/// Runs apt non-interactively as root.
fn apt(host: &Host, how: Privilege, argv: &[&str]) -> Result<(), String> {
    // Through `env`, because sudo resets the environment a `Command::env` would set.
    let mut cmd = match how {
        Privilege::Root => host.command("env"),
        Privilege::Sudo => {
            let mut c = host.command("sudo");
            c.args(["-n", "env"]);
            c
        }
    };
    let status = cmd
        .arg("DEBIAN_FRONTEND=noninteractive")
        .args(argv)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", argv.join(" ")))?;
    if !status.success() {
        return Err(format!("`{}` failed ({status})", argv.join(" ")));
    }
    Ok(())
}

// The stand-ins are shell scripts.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn policy_names_installed_packages_older_than_the_candidate() {
        let text = "\
libegl1:
  Installed: 1.6.0-1
  Candidate: 1.6.0-1
  Version table:
 *** 1.6.0-1 500
        100 /var/lib/dpkg/status
libgl1-mesa-dri:
  Installed: 22.3.6-1+deb12u1
  Candidate: 22.3.6-1+deb12u2
  Version table:
     22.3.6-1+deb12u2 500
 *** 22.3.6-1+deb12u1 100
        100 /var/lib/dpkg/status
xvfb:
  Installed: (none)
  Candidate: 2:21.1.7-3+deb12u13
libegl-mesa0:
  Installed: 22.3.6-1+deb12u1
  Candidate: (none)
";
        assert_eq!(
            parse_policy(text),
            [Outdated {
                package: "libgl1-mesa-dri".into(),
                installed: "22.3.6-1+deb12u1".into(),
                candidate: "22.3.6-1+deb12u2".into(),
            }]
        );
    }

    /// A folder of stand-ins for `dpkg`, `apt-cache`, `apt-get`, `id`, `sudo` and `python3`
    /// that log their arguments; removed when dropped.
    struct Stand {
        dir: PathBuf,
    }

    /// What the stand-ins answer.
    struct Machine<'a> {
        dpkg: bool,
        root: bool,
        installed: &'a [&'a str],
        policy: &'a str,
        update_fails: bool,
    }

    impl Stand {
        fn new(name: &str, m: &Machine<'_>) -> Stand {
            let dir =
                std::env::temp_dir().join(format!("xtask-packages-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let log = dir.join("log");
            let script = |name: &str, body: &str| {
                use std::os::unix::fs::PermissionsExt;
                let path = dir.join(name);
                let text = format!(
                    "#!/bin/sh\necho \"{name} $*\" >> '{}'\n{body}\n",
                    log.display()
                );
                std::fs::write(&path, text).unwrap();
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            };
            let installed = m.installed.join(" ");
            script(
                "dpkg",
                &format!(
                    "case \"$1\" in --version) exit {};; -s) case ' {installed} ' in *\" $2 \"*) \
                     echo 'Status: install ok installed';; esac;; esac",
                    if m.dpkg { 0 } else { 1 }
                ),
            );
            std::fs::write(dir.join("policy"), m.policy).unwrap();
            script(
                "apt-cache",
                &format!("cat '{}'", dir.join("policy").display()),
            );
            let update = if m.update_fails { 100 } else { 0 };
            script(
                "apt-get",
                &format!("[ \"$1\" = update ] && exit {update}; exit 0"),
            );
            script("id", if m.root { "echo 0" } else { "echo 1000" });
            script("sudo", "exit 1");
            script("python3", "exit 0");
            Stand { dir }
        }

        /// `ensure_on` these stand-ins, the lists last updated `age` ago.
        fn ensure(&self, wanted: &[&str], age: Duration) -> Result<(), String> {
            let stamp = self.dir.join("stamp");
            std::fs::write(&stamp, "").unwrap();
            let path = format!("{}:/usr/bin:/bin", self.dir.display());
            let host = Host {
                path: Some(path.into()),
                stamp,
                now: SystemTime::now() + age,
            };
            ensure_on(&host, wanted)
        }

        /// The apt-get command lines run, in order.
        fn apt_get(&self) -> Vec<String> {
            let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
            log.lines()
                .filter(|l| l.starts_with("apt-get "))
                .map(str::to_string)
                .collect()
        }
    }

    impl Drop for Stand {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    const OLD_MESA: &str = "libegl1:\n  Installed: 1.6.0-1\n  Candidate: 1.6.0-1\n\
        libegl-mesa0:\n  Installed: 22.3.6-1+deb12u1\n  Candidate: 22.3.6-1+deb12u2\n\
        libgl1-mesa-dri:\n  Installed: 22.3.6-1+deb12u1\n  Candidate: 22.3.6-1+deb12u2\n";
    const CURRENT_MESA: &str = "libegl1:\n  Installed: 1.6.0-1\n  Candidate: 1.6.0-1\n\
        libegl-mesa0:\n  Installed: 22.3.6-1+deb12u2\n  Candidate: 22.3.6-1+deb12u2\n\
        libgl1-mesa-dri:\n  Installed: 22.3.6-1+deb12u2\n  Candidate: 22.3.6-1+deb12u2\n";
    const HOUR: Duration = Duration::from_secs(60 * 60);

    fn machine<'a>(policy: &'a str, installed: &'a [&'a str]) -> Machine<'a> {
        Machine {
            dpkg: true,
            root: true,
            installed,
            policy,
            update_fails: false,
        }
    }

    #[test]
    fn an_older_mesa_is_upgraded_after_an_update_and_a_current_one_costs_no_apt_get() {
        let update = "apt-get update -qq";
        let upgrade = "apt-get install -y --no-install-recommends libegl-mesa0 libgl1-mesa-dri";
        for age in [HOUR, 30 * HOUR] {
            let stand = Stand::new(&format!("old-{}", age.as_secs()), &machine(OLD_MESA, GL));
            stand.ensure(GL, age).unwrap();
            assert_eq!(stand.apt_get(), [update, upgrade]);
        }
        // Current and the lists fresh: no apt-get at all (a warm run); stale lists: an update.
        let stand = Stand::new("current", &machine(CURRENT_MESA, GL));
        stand.ensure(GL, Duration::ZERO).unwrap();
        assert_eq!(stand.apt_get(), Vec::<String>::new());
        stand.ensure(GL, 30 * HOUR).unwrap();
        assert_eq!(stand.apt_get(), [update]);
        // A missing package: update, then install it.
        let stand = Stand::new("missing", &machine(CURRENT_MESA, GL));
        stand
            .ensure(&[GL, &[XVFB]].concat(), Duration::ZERO)
            .unwrap();
        assert_eq!(
            stand.apt_get(),
            [update, "apt-get install -y --no-install-recommends xvfb"]
        );
    }

    #[test]
    fn mesas_vulkan_driver_is_installed_when_missing_and_upgraded_like_gl() {
        let update = "apt-get update -qq";
        let wanted = [GL, VULKAN].concat();
        // Only the GL packages there: the Vulkan ones are installed.
        let stand = Stand::new("vulkan-missing", &machine(CURRENT_MESA, GL));
        stand.ensure(&wanted, Duration::ZERO).unwrap();
        assert_eq!(
            stand.apt_get(),
            [
                update,
                "apt-get install -y --no-install-recommends libvulkan1 mesa-vulkan-drivers"
            ]
        );
        // An older mesa-vulkan-drivers is brought to Debian's current version, as Mesa's EGL is.
        let policy = format!(
            "{CURRENT_MESA}libvulkan1:\n  Installed: 1.3.239.0-1\n  Candidate: 1.3.239.0-1\n\
             mesa-vulkan-drivers:\n  Installed: 22.3.6-1+deb12u1\n  Candidate: 22.3.6-1+deb12u2\n"
        );
        let stand = Stand::new("vulkan-old", &machine(&policy, &wanted));
        stand.ensure(&wanted, HOUR).unwrap();
        assert_eq!(
            stand.apt_get(),
            [
                update,
                "apt-get install -y --no-install-recommends mesa-vulkan-drivers"
            ]
        );
    }

    #[test]
    fn without_apt_or_root_an_older_mesa_is_a_warning_not_a_failure() {
        // Offline: the update fails; nothing is missing, so the run goes on.
        let offline = Machine {
            update_fails: true,
            ..machine(OLD_MESA, GL)
        };
        let stand = Stand::new("offline", &offline);
        stand.ensure(GL, 30 * HOUR).unwrap();
        assert_eq!(stand.apt_get(), ["apt-get update -qq"]);
        // Not root and no sudo: nothing run.
        let user = Machine {
            root: false,
            ..machine(OLD_MESA, GL)
        };
        let stand = Stand::new("user", &user);
        stand.ensure(GL, 30 * HOUR).unwrap();
        assert_eq!(stand.apt_get(), Vec::<String>::new());
        // ... but a missing package is still the error naming the command.
        let err = stand.ensure(&[XVFB], 30 * HOUR).unwrap_err();
        assert!(
            err.contains("sudo apt-get update && sudo apt-get install"),
            "{err}"
        );
        // No dpkg (not Debian): today's note, and nothing run.
        let other = Machine {
            dpkg: false,
            ..machine(OLD_MESA, &[])
        };
        let stand = Stand::new("other", &other);
        stand.ensure(GL, 30 * HOUR).unwrap();
        assert_eq!(stand.apt_get(), Vec::<String>::new());
    }

    #[test]
    fn lists_are_refreshed_once_a_day() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(10 * 24 * 60 * 60);
        let hour = Duration::from_secs(60 * 60);
        assert!(fresh(now - hour, now));
        assert!(!fresh(now - 25 * hour, now));
        // A stamp in the future (a clock set back) is not trusted.
        assert!(!fresh(now + hour, now));
    }
}
