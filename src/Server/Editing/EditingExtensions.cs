using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Server.Composition;

namespace IfiDashboard.Server.Editing;

public static class EditingExtensions
{
    /// <summary>The services behind the dashboard's policy and inventory pages.</summary>
    public static IServiceCollection AddIfiEditing(this IServiceCollection services)
    {
        services.AddIfiModule(IfiModuleNames.Editing, IfiModuleNames.Store, IfiModuleNames.Compliance, IfiModuleNames.EmbeddedCollector);
        services.AddOptions<ConnectionTestOptions>().BindConfiguration(ConnectionTestOptions.Section)
            .Validate(o => o is { PermitLimit: > 0, WindowSeconds: > 0 },
                "TestConnection:PermitLimit and TestConnection:WindowSeconds must be positive.")
            .ValidateOnStart();
        services.AddSingleton<ConnectionTestLimits>();
        services.AddOptions<BulkRegistrationOptions>().BindConfiguration(BulkRegistrationOptions.Section)
            .Validate(o => o is { PermitLimit: > 0, WindowSeconds: > 0 },
                "BulkRegistration:PermitLimit and BulkRegistration:WindowSeconds must be positive.")
            .ValidateOnStart();
        services.AddSingleton<BulkRegistrationLimits>();
        services.AddSingleton<IPolicyEditor, PolicyEditor>();
        services.AddSingleton<IInventoryEditor, InventoryEditor>();
        return services;
    }
}
