// Runs one batch through tedious and prints what the driver saw as one line of JSON, for the simulator's tests.
// Usage: node query.mjs '{"port":1433,"user":"u","password":"p","encrypt":true|false|"strict","tdsVersion":"7_4","sql":"SELECT 1","ca":"PEM"}'
// With "params" ([{"name":"b","type":"VarBinary","value":"0102"}]) the batch goes as sp_executesql with those typed
// parameters (tedious's TYPES; a VarBinary value is hex). Binary values come back as hex.
// With "ca", the server certificate is checked against it (TDS 8.0 strict mode checks the certificate whatever
// trustServerCertificate says); without it, any certificate is trusted.
// Output: {"tdsVersion":"7_4","columns":[{"name":"x","type":"Int"}],"rows":[[1]]} or {"error":{"message":"...","code":"..."}}
import { Connection, Request, TYPES } from 'tedious';

const settings = JSON.parse(process.argv[2]);
const print = (value) => process.stdout.write(JSON.stringify(value) + '\n');
const failure = (error) => ({ message: error.message, code: error.code ?? null, number: error.number ?? null });

const connection = new Connection({
  server: '127.0.0.1',
  authentication: { type: 'default', options: { userName: settings.user, password: settings.password } },
  options: {
    port: settings.port,
    encrypt: settings.encrypt,
    trustServerCertificate: true,
    tdsVersion: settings.tdsVersion ?? '7_4',
    ...(settings.ca ? { cryptoCredentialsDetails: { ca: settings.ca } } : {}),
    connectTimeout: 15000,
    debug: { packet: !!process.env.TDS_DEBUG, token: !!process.env.TDS_DEBUG, data: !!process.env.TDS_DEBUG, payload: !!process.env.TDS_DEBUG },
    requestTimeout: 15000,
  },
});

connection.on('connect', (error) => {
  if (error) {
    print({ error: failure(error) });
    process.exit(0);
  }
  const columns = [];
  const rows = [];
  const request = new Request(settings.sql, (requestError) => {
    print(requestError
      ? { tdsVersion: connection.config.options.tdsVersion, error: failure(requestError) }
      : { tdsVersion: connection.config.options.tdsVersion, columns, rows });
    connection.close();
  });
  request.on('columnMetadata', (metadata) => {
    for (const column of metadata) columns.push({ name: column.colName, type: column.type.name });
  });
  for (const p of settings.params ?? [])
    request.addParameter(p.name, TYPES[p.type], p.type === 'VarBinary' ? Buffer.from(p.value, 'hex') : p.value);
  const show = (value) => (value instanceof Date ? value.toISOString() : Buffer.isBuffer(value) ? value.toString('hex') : value);
  request.on('row', (row) => rows.push(row.map((cell) => show(cell.value))));
  connection.execSql(request);
});
connection.on('error', (error) => {
  print({ error: failure(error) });
  process.exit(0);
});
if (process.env.TDS_DEBUG) connection.on('debug', (m) => process.stderr.write(m + '\n'));
connection.connect();
