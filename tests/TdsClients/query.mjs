// Runs batches through tedious and prints what the driver saw as one line of JSON each, for the simulator's tests.
// Usage: node query.mjs '{"port":1433,"user":"u","password":"p","encrypt":true|false|"strict","tdsVersion":"7_4","sql":"SELECT 1","ca":"PEM"}'
// Without an argument it reads such settings, each with an "id", one per line from standard input, runs them side by
// side on connections of their own, and answers each with a line carrying its id: the tests start Node once for all
// their queries (TediousClient.cs), not once per query. It ends when its input ends.
// With "params" ([{"name":"b","type":"VarBinary","value":"0102"}]) the batch goes as sp_executesql with those typed
// parameters (tedious's TYPES; a VarBinary value is hex). Binary values come back as hex.
// With "ca", the server certificate is checked against it (TDS 8.0 strict mode checks the certificate whatever
// trustServerCertificate says); without it, any certificate is trusted.
// Output: {"tdsVersion":"7_4","columns":[{"name":"x","type":"Int"}],"rows":[[1]]} or {"error":{"message":"...","code":"..."}}
import { createInterface } from 'node:readline';
import { Connection, Request, TYPES } from 'tedious';

const print = (value) => process.stdout.write(JSON.stringify(value) + '\n');
const failure = (error) => ({ message: error.message, code: error.code ?? null, number: error.number ?? null });
const show = (value) => (value instanceof Date ? value.toISOString() : Buffer.isBuffer(value) ? value.toString('hex') : value);

function query(settings) {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (value) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    const connection = new Connection({
      server: '127.0.0.1',
      authentication: { type: 'default', options: { userName: settings.user, password: settings.password } },
      options: {
        port: settings.port,
        encrypt: settings.encrypt,
        trustServerCertificate: true,
        tdsVersion: settings.tdsVersion ?? '7_4',
        ...(settings.ca ? { cryptoCredentialsDetails: { ca: settings.ca } } : {}),
        // Safety nets only: under the test command's load a TLS login alone has taken over 15 s.
        connectTimeout: 60000,
        debug: { packet: !!process.env.TDS_DEBUG, token: !!process.env.TDS_DEBUG, data: !!process.env.TDS_DEBUG, payload: !!process.env.TDS_DEBUG },
        requestTimeout: 60000,
      },
    });

    connection.on('connect', (error) => {
      if (error) {
        answer({ error: failure(error) });
        return;
      }
      const columns = [];
      const rows = [];
      const request = new Request(settings.sql, (requestError) => {
        answer(requestError
          ? { tdsVersion: connection.config.options.tdsVersion, error: failure(requestError) }
          : { tdsVersion: connection.config.options.tdsVersion, columns, rows });
        connection.close();
      });
      request.on('columnMetadata', (metadata) => {
        for (const column of metadata) columns.push({ name: column.colName, type: column.type.name });
      });
      for (const p of settings.params ?? [])
        request.addParameter(p.name, TYPES[p.type], p.type === 'VarBinary' ? Buffer.from(p.value, 'hex') : p.value);
      request.on('row', (row) => rows.push(row.map((cell) => show(cell.value))));
      connection.execSql(request);
    });
    connection.on('error', (error) => {
      answer({ error: failure(error) });
      connection.close();
    });
    if (process.env.TDS_DEBUG) connection.on('debug', (m) => process.stderr.write(m + '\n'));
    connection.connect();
  });
}

if (process.argv[2]) {
  print(await query(JSON.parse(process.argv[2])));
  process.exit(0);
} else {
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    const { id, ...settings } = JSON.parse(line);
    query(settings).then((result) => print({ id, ...result }));
  });
  // Nobody reads the answers once the tests' process has gone.
  input.on('close', () => process.exit(0));
}
