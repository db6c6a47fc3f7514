// Runs a script through jTDS (Debian's libjtds-java, /usr/share/java/jtds.jar), a JDBC driver written independently
// of Microsoft's clients, and prints what the driver saw as one JSON object per line, for the simulator's tests.
// Usage: java -cp /usr/share/java/jtds.jar JtdsScript.java <jdbc-url> <user> <password> < script (the tests compile it
// once with javac and run the class: see ScriptedClient.cs)
// Script lines (see ScriptedClient.cs): sql TEXT | prepare TEXT | call TEXT | int NAME N | bytes NAME HEX |
// string NAME TEXT | execute | autocommit on|off | commit | rollback
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.sql.*;
import java.util.*;

public class JtdsScript {
    public static void main(String[] args) throws Exception {
        Class.forName("net.sourceforge.jtds.jdbc.Driver");
        try (Connection connection = DriverManager.getConnection(args[0], args[1], args[2])) {
            print("{\"connected\":true}");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            PreparedStatement prepared = null;
            int parameter = 0;
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) continue;
                String[] parts = line.split(" ", 2);
                String rest = parts.length > 1 ? parts[1] : "";
                try {
                    switch (parts[0]) {
                        case "sql" -> { try (Statement s = connection.createStatement()) { results(s, s.execute(rest)); } }
                        case "prepare" -> { prepared = connection.prepareStatement(rest); parameter = 0; }
                        case "call" -> { prepared = connection.prepareCall(rest); parameter = 0; }
                        case "int" -> prepared.setInt(++parameter, Integer.parseInt(rest.split(" ", 2)[1]));
                        case "string" -> prepared.setString(++parameter, rest.split(" ", 2)[1]);
                        case "bytes" -> prepared.setBytes(++parameter, hex(rest.split(" ", 2)[1]));
                        case "execute" -> { results(prepared, prepared.execute()); parameter = 0; }
                        case "autocommit" -> connection.setAutoCommit(rest.equals("on"));
                        case "commit" -> connection.commit();
                        case "rollback" -> connection.rollback();
                        default -> throw new IllegalArgumentException("unknown script line: " + line);
                    }
                    if (!parts[0].equals("sql") && !parts[0].equals("execute")) print("{\"done\":" + quote(parts[0]) + "}");
                } catch (SQLException e) {
                    print("{\"error\":{\"number\":" + e.getErrorCode() + ",\"message\":" + quote(e.getMessage()) + "}}");
                }
            }
        } catch (SQLException e) {
            print("{\"error\":{\"number\":" + e.getErrorCode() + ",\"message\":" + quote(e.getMessage()) + "},\"connected\":false}");
        }
    }

    static void results(Statement statement, boolean isResultSet) throws SQLException {
        for (; ; isResultSet = statement.getMoreResults()) {
            if (isResultSet) {
                try (ResultSet rows = statement.getResultSet()) {
                    ResultSetMetaData meta = rows.getMetaData();
                    StringBuilder out = new StringBuilder("{\"columns\":[");
                    for (int i = 1; i <= meta.getColumnCount(); i++)
                        out.append(i > 1 ? "," : "").append("{\"name\":").append(quote(meta.getColumnName(i)))
                            .append(",\"type\":").append(quote(meta.getColumnTypeName(i))).append("}");
                    out.append("],\"rows\":[");
                    for (boolean first = true; rows.next(); first = false) {
                        out.append(first ? "[" : ",[");
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            Object value = rows.getObject(i);
                            out.append(i > 1 ? "," : "").append(value == null ? "null"
                                : value instanceof byte[] bytes ? quote(HexFormat.of().formatHex(bytes)) : quote(value.toString()));
                        }
                        out.append("]");
                    }
                    print(out.append("]}").toString());
                }
            } else if (statement.getUpdateCount() == -1) {
                return;
            }
        }
    }

    static byte[] hex(String text) { return HexFormat.of().parseHex(text); }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    static void print(String line) { System.out.println(line); System.out.flush(); }
}
