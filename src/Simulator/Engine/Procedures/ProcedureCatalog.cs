using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Procedures;

/// <summary>
/// The stored procedures EXEC can call. Any other name is Msg 2812 and a log line, so a collector call the simulator
/// does not model fails loudly.
/// </summary>
internal static class ProcedureCatalog
{
    /// <summary>Binds the call and returns what runs it; arguments are bound now, evaluated when it runs.</summary>
    public static Func<BatchItem> Bind(ExecStatement exec, BindScope scope)
    {
        if (ReadErrorLogProcedure.NameOf(exec.NameParts) is not { } procedure)
        {
            throw SqlErrors.UnknownProcedure(exec.WrittenName, exec.Line, unknownToSimulator: true);
        }

        // Azure SQL Database has no error log procedure: the emulated answer, not a simulator gap.
        if (scope.Session.Profile.IsAzureSqlDatabase)
        {
            throw SqlErrors.UnknownProcedure(exec.WrittenName, exec.Line, unknownToSimulator: false);
        }

        if (exec.Arguments.Count > ReadErrorLogProcedure.ParameterCount)
        {
            throw SqlErrors.TooManyArguments(procedure, exec.Line);
        }

        var arguments = exec.Arguments
            .Select(a => a is DefaultArgument ? null : ExpressionBinder.Bind(a, scope))
            .ToList();
        return () => ReadErrorLogProcedure.Run(scope.Session, procedure, arguments.Select(a => a?.Evaluate([])).ToList(), exec.Line);
    }
}
