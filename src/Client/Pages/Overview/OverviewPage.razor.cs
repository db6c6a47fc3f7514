namespace IfiDashboard.Client.Pages.Overview;

/// <summary>The morning page: are we compliant, what is it costing us, what do I fix first.</summary>
public partial class OverviewPage
{
    OverviewModel? _model;
    string? _loadError;

    protected override async Task LoadAsync()
    {
        try
        {
            _model = OverviewModel.For(await Assessments.GetAsync(PageClosed));
            _loadError = null;
        }
        catch (Exception e)
        {
            // The page still renders and says what is wrong; the store's health is on /readyz.
            _loadError = Failures.Logged("Reading the overview", e);
        }
    }
}
