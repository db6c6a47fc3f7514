using IfiDashboard.Shared.Editing;

namespace IfiDashboard.Server.Editing;

public static class EditingExtensions
{
    /// <summary>The services behind the dashboard's policy and inventory pages.</summary>
    public static IServiceCollection AddIfiEditing(this IServiceCollection services)
    {
        services.AddSingleton<IPolicyEditor, PolicyEditor>();
        services.AddSingleton<IInventoryEditor, InventoryEditor>();
        return services;
    }
}
