using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// The SQL Server messages the engine raises, with the numbers, states and severities a real server uses, because
/// the collector classifies failures by number (docs/sqlserver-reference.md, section 9).
/// </summary>
internal static class SqlErrors
{
    public static QueryException Syntax(string near, int line) =>
        new(new SqlMessage(102, 1, 15, $"Incorrect syntax near '{near}'.", line));

    public static QueryException UnclosedQuote(string text, int line) =>
        new(new SqlMessage(105, 1, 15, $"Unclosed quotation mark after the character string '{text}'.", line));

    public static QueryException MissingEndComment(int line) =>
        new(new SqlMessage(113, 1, 15, "Missing end comment mark '*/'.", line));

    public static SqlMessage InvalidColumnMessage(string name, int line = 1) =>
        new(207, 1, 16, $"Invalid column name '{name}'.", line);

    public static QueryException InvalidColumn(string name, int line, bool unknownToSimulator) =>
        new(InvalidColumnMessage(name, line), unknownToSimulator: unknownToSimulator);

    public static SqlMessage InvalidObjectMessage(string name, int line = 1) =>
        new(208, 1, 16, $"Invalid object name '{name}'.", line);

    public static QueryException InvalidObject(string name, int line, bool unknownToSimulator) =>
        new(InvalidObjectMessage(name, line), unknownToSimulator: unknownToSimulator);

    public static QueryException UnknownFunction(string name, int line) =>
        new(new SqlMessage(195, 10, 15, $"'{name}' is not a recognized built-in function name.", line));

    public static QueryException UndeclaredVariable(string name, int line) =>
        new(new SqlMessage(137, 2, 15, $"Must declare the scalar variable \"{name}\".", line));

    public static QueryException UnboundMultiPart(string name, int line) =>
        new(new SqlMessage(4104, 1, 16, $"The multi-part identifier \"{name}\" could not be bound.", line));

    public static QueryException NotInGroupBy(string column, int line) =>
        new(new SqlMessage(8120, 1, 16,
            $"Column '{column}' is invalid in the select list because it is not contained in either an aggregate " +
            "function or the GROUP BY clause.", line));

    public static QueryException ConversionFailed(string fromType, string value, string toType) =>
        new(new SqlMessage(245, 1, 16,
            $"Conversion failed when converting the {fromType} value '{value}' to data type {toType}."));

    public static QueryException Overflow(string toType) =>
        new(new SqlMessage(8115, 2, 16, $"Arithmetic overflow error converting expression to data type {toType}."));

    /// <summary>Msg 300 then Msg 297, as SQL Server answers a DMV read without the server permission.</summary>
    public static IReadOnlyList<SqlMessage> PermissionDenied(string permission, int line = 1) =>
    [
        new(300, 1, 14, $"{permission} permission was denied on object 'server', database 'master'.", line),
        new(297, 1, 16, "The user does not have permission to perform this action.", line),
    ];

    /// <summary>SQL Trace objects without ALTER TRACE: Msg 8189 naming the object in capitals (reference section 3).</summary>
    public static SqlMessage NoTracePermission(string what, int line = 1) =>
        new(8189, 6, 14, $"You do not have permission to run '{what}'.", line);

    /// <summary>
    /// fn_trace_gettable on a path that is no file of a trace. [U] number and text as community posts quote them;
    /// the collector should treat any error here as "trace not readable", not match the text.
    /// </summary>
    public static QueryException TraceFileNotFound(string path) =>
        new(new SqlMessage(19049, 1, 16,
            $"File '{path}' either does not exist or is not a recognizable trace file. Or there was an error opening the file."),
            abortsBatch: false, unknownToSimulator: false);

    public static QueryException ArgumentsNotSupplied(string function, int line) =>
        new(new SqlMessage(216, 1, 16, $"Parameters were not supplied for the function '{function}'.", line));

    public static QueryException TooManyArguments(string routine, int line) =>
        new(new SqlMessage(8144, 2, 16, $"Procedure or function {routine} has too many arguments specified.", line));

    public static QueryException UnknownProcedure(string name, int line, bool unknownToSimulator) =>
        new(new SqlMessage(2812, 62, 16, $"Could not find stored procedure '{name}'.", line),
            unknownToSimulator: unknownToSimulator);

    /// <summary>Azure SQL Database refuses three-part names that point at another database. [U] state.</summary>
    public static QueryException CrossDatabaseReference(string name, int line) =>
        new(new SqlMessage(40515, 1, 15,
            $"Reference to database and/or server name in '{name}' is not supported in this version of SQL Server.", line),
            unknownToSimulator: false);

    /// <summary>
    /// sp_readerrorlog's own check, raised from inside the procedure. [U] the text still names securityadmin on
    /// builds that accept VIEW SERVER STATE or VIEW ANY ERROR LOG instead.
    /// </summary>
    public static SqlMessage ErrorLogDenied(int line = 1) =>
        new(15003, 1, 16, "Only members of the securityadmin role can execute this stored procedure.", line);

    /// <summary>An extended procedure the login may not execute (xp_readerrorlog without EXECUTE on it).</summary>
    public static SqlMessage ExecuteDenied(string procedure, int line = 1) =>
        new(229, 5, 14, $"The EXECUTE permission was denied on the object '{procedure}', database 'mssqlsystemresource', schema 'sys'.", line);

    /// <summary>
    /// A log number beyond the archives kept. [U] number and text as community posts quote them; the collector treats
    /// any error on an archived log as "no such log".
    /// </summary>
    public static SqlMessage ErrorLogNotFound(int line = 1) =>
        new(22004, 1, 16, "xp_readerrorlog() returned error 2, 'The system cannot find the file specified.'", line);

    /// <summary>A DBCC command the simulator does not model, as SQL Server answers an unknown one.</summary>
    public static QueryException UnknownDbcc(string command, int line) =>
        new(new SqlMessage(2526, 3, 16, $"Incorrect DBCC statement. Check the documentation for the correct DBCC syntax and options. ({command})", line),
            unknownToSimulator: true);

    /// <summary>The informational line every DBCC command ends with unless WITH NO_INFOMSGS.</summary>
    public static SqlMessage DbccCompleted(int line = 1) =>
        new(2528, 1, 10, "DBCC execution completed. If DBCC printed error messages, contact your system administrator.", line);

    /// <summary>The messages a scenario's ErrorNumber fault answers with; unknown numbers get a generic text.</summary>
    public static IReadOnlyList<SqlMessage> Fault(int number, SessionContext session) => number switch
    {
        18456 => [new(18456, 1, 14, $"Login failed for user '{session.Login.Name}'.")],
        229 => [new(229, 5, 14,
            "The SELECT permission was denied on the object 'dm_server_services', database 'mssqlsystemresource', " +
            "schema 'sys'.")],
        300 => PermissionDenied(session.Profile.ServerServicesPermission),
        8189 => [NoTracePermission("SYS.TRACES")],
        208 => [InvalidObjectMessage("sys.dm_server_services")],
        207 => [InvalidColumnMessage("instant_file_initialization_enabled")],
        _ => [new(number, 1, 16, $"Simulated fault: error {number}.")],
    };
}
