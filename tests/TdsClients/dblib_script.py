# Runs a script through pymssql, Python's driver on FreeTDS's db-lib (Debian's python3-pymssql), and prints what it saw
# as one JSON object per line, for the simulator's tests. pymssql substitutes parameters into the text itself; its
# callproc sends an RPC with the parameters by position.
# Usage: python3 dblib_script.py PORT USER PASSWORD TDS_VERSION < script
# Script lines (see ScriptedClient.cs): sql TEXT | call PROCEDURE | int NAME N | bytes NAME HEX | string NAME TEXT |
# execute | commit | rollback
import json, sys
import pymssql

def show(value):
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return None if value is None else str(value)

def print_results(cursor):
    while True:
        if cursor.description:
            names = [{"name": d[0], "type": str(d[1])} for d in cursor.description]
            print(json.dumps({"columns": names, "rows": [[show(v) for v in row] for row in cursor.fetchall()]}), flush=True)
        if not cursor.nextset():
            return

port, user, password, version = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
try:
    connection = pymssql.connect(server="127.0.0.1", port=port, user=user, password=password, tds_version=version, autocommit=True)
except pymssql.Error as e:
    print(json.dumps({"connected": False, "error": {"number": 0, "message": str(e)}}), flush=True)
    sys.exit(0)
print(json.dumps({"connected": True, "tdsVersion": connection._conn.tds_version}), flush=True)
cursor = connection.cursor()
procedure, parameters = None, []
for line in sys.stdin.read().splitlines():
    if not line.strip():
        continue
    verb, _, rest = line.partition(" ")
    try:
        if verb == "sql":
            cursor.execute(rest)
            print_results(cursor)
        elif verb == "call":
            procedure, parameters = rest, []
        elif verb in ("int", "string", "bytes"):
            value = rest.partition(" ")[2]
            parameters.append(int(value) if verb == "int" else bytes.fromhex(value) if verb == "bytes" else value)
        elif verb == "execute":
            cursor.callproc(procedure, tuple(parameters))
            print_results(cursor)
        elif verb in ("commit", "rollback"):
            getattr(connection, verb)()
            print(json.dumps({"done": verb}), flush=True)
        else:
            raise ValueError("unknown script line: " + line)
    except pymssql.Error as e:
        number = e.args[0] if e.args and isinstance(e.args[0], int) else 0
        print(json.dumps({"error": {"number": number, "message": str(e)}}), flush=True)
connection.close()
