using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Work derived from a new assessment before it is published (<see cref="FleetAssessments"/>), so no reader ever meets
/// the assessment without it: until then every reader keeps the previous assessment and what was derived from it.
/// </summary>
public interface IAssessmentPreparer
{
    /// <summary>Runs in the background build, once per new assessment; a failure is logged and publishes it anyway.</summary>
    void Prepare(FleetAssessment assessment);
}
