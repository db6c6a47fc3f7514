#!/usr/bin/env bash
# Installs the programs the tests use, only when missing (so a second run does nothing):
#   tsql (freetds-bin)       an independent TDS client, to prove the simulator speaks TDS and not only SqlClient
#   docker-compose           validates docker-compose.yml (no Docker engine runs here)
#   chromium, chromium-driver  headless browser and its WebDriver for the dashboard's end-to-end tests (tests/E2E.Tests)
#   postgresql               the server the store tests' PostgreSQL pass runs against (scripts/start-test-postgres.sh)
#   nodejs, npm, oidc-provider  the OpenID Connect provider the sign-in tests run on loopback (tests/OidcProvider)
#   axe-core                    the accessibility rules the browser tests run on every page (tests/Accessibility)
#   tedious                  Node.js's TDS driver, a second independent client for the simulator's tests (tests/TdsClients)
#   @redocly/cli, openapi-typescript, openapi-fetch, typescript  lint /openapi/v1.json and generate the TypeScript client
#                            the API contract's tests drive against the server (tests/ApiContract)
#   libjtds-java, default-jdk-headless  jTDS, a JDBC driver, and the JDK that compiles and runs its script
#                            (tests/TdsClients/JtdsScript.java): a third independent client for the simulator's tests
#   python3-pymssql          pymssql on FreeTDS's db-lib (tests/TdsClients/dblib_script.py), a fourth
#   krb5-kdc, krb5-admin-server, krb5-user  the MIT Kerberos KDC (krb5kdc, kdb5_util, kadmin.local) and kinit/klist
#                            for the integrated security tests (tests/Collector.Tests/Kerberos); each test run starts
#                            its own KDC on loopback, the system's krb5.conf is not used
#   wine, wine64             run the collector's win-x64 self-contained build against the simulator
#                            (tests/Collector.Tests/Standalone/WindowsBuildUnderWineTests.cs)
#   PowerShell 7 (.tools/pwsh, the dotnet tool) and Pester (tests/PowerShell/packages)  run the generated remediation
#                            script's Pester tests (tests/Compliance.Tests/Remediation/RemediationScript.Tests.ps1)
set -euo pipefail

missing=()
command -v tsql >/dev/null 2>&1 || missing+=(freetds-bin)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
/usr/bin/python3 -c 'import aiosmtpd' >/dev/null 2>&1 || missing+=(python3-aiosmtpd)  # SMTP server for the alert tests (Debian's python3)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
[ -f /usr/share/java/jtds.jar ] || missing+=(libjtds-java)
java --list-modules 2>/dev/null | grep -q '^jdk.compiler' || missing+=(default-jdk-headless)  # the tests compile their jTDS script with javac
/usr/bin/python3 -c 'import pymssql' >/dev/null 2>&1 || missing+=(python3-pymssql)
[ -x /usr/sbin/krb5kdc ] || missing+=(krb5-kdc)
[ -x /usr/sbin/kadmin.local ] || missing+=(krb5-admin-server)
[ -x /usr/bin/kinit ] || missing+=(krb5-user)
command -v wine >/dev/null 2>&1 || missing+=(wine)
[ -x /usr/lib/wine/wine64 ] || missing+=(wine64)

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing test dependencies: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

provider="$(dirname "$0")/../tests/OidcProvider"
if [ ! -d "$provider/node_modules/oidc-provider" ]; then
  echo "Installing oidc-provider for the sign-in tests"
  (cd "$provider" && npm ci --no-audit --no-fund --loglevel=error)
fi

accessibility="$(dirname "$0")/../tests/Accessibility"
if [ ! -f "$accessibility/node_modules/axe-core/axe.min.js" ]; then
  echo "Installing axe-core for the accessibility checks of the browser tests"
  (cd "$accessibility" && npm ci --no-audit --no-fund --loglevel=error)
fi

clients="$(dirname "$0")/../tests/TdsClients"
if [ ! -d "$clients/node_modules/tedious" ]; then
  echo "Installing tedious for the simulator's client tests"
  (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error)
fi

contract="$(dirname "$0")/../tests/ApiContract"
if [ ! -f "$contract/node_modules/openapi-typescript/bin/cli.js" ] || [ ! -f "$contract/node_modules/@redocly/cli/bin/cli.js" ]; then
  echo "Installing redocly and openapi-typescript for the API contract's tests"
  (cd "$contract" && npm ci --no-audit --no-fund --loglevel=error)
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x "$root/.tools/pwsh" ]; then
  echo "Installing PowerShell 7 into .tools for the remediation script's tests"
  dotnet tool install --tool-path "$root/.tools" PowerShell --version 7.6.9 >/dev/null
fi
if [ ! -f "$root/tests/PowerShell/packages/pester/6.2.0/tools/Pester.psd1" ]; then
  echo "Downloading Pester into tests/PowerShell/packages for the remediation script's tests"
  dotnet restore "$root/tests/PowerShell/Pester.csproj" --packages "$root/tests/PowerShell/packages" --nologo -v q
fi
