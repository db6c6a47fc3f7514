using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Client.Components.Charts;

/// <summary>Labels and colours of growth events by what their time was spent on (docs/compliance.md, time lost).</summary>
public static class ZeroingClasses
{
    public static readonly GrowthZeroing[] Ordered =
    [
        GrowthZeroing.DataZeroedWithoutIfi, GrowthZeroing.DataZeroedByPolicy, GrowthZeroing.DataZeroedByTde, GrowthZeroing.LogZeroed,
        GrowthZeroing.IfiUnknown, GrowthZeroing.DataNotZeroed, GrowthZeroing.LogNotZeroed, GrowthZeroing.NotApplicable,
    ];

    public static string Label(GrowthZeroing zeroing) => zeroing switch
    {
        GrowthZeroing.DataZeroedWithoutIfi => "Data zeroed without IFI (time lost)",
        GrowthZeroing.DataZeroedByPolicy => "Data zeroed, IFI forbidden (cost of policy)",
        GrowthZeroing.DataZeroedByTde => "Data zeroed by TDE (IFI cannot help)",
        GrowthZeroing.DataNotZeroed => "Data grown with IFI",
        GrowthZeroing.LogZeroed => "Log zeroed (not avoidable by IFI)",
        GrowthZeroing.LogNotZeroed => "Log ≤ 64 MB on 2022+, not zeroed",
        GrowthZeroing.IfiUnknown => "IFI unknown",
        _ => "Not applicable",
    };

    public static string Css(GrowthZeroing zeroing) => zeroing switch
    {
        GrowthZeroing.DataZeroedWithoutIfi => "z-lost",
        GrowthZeroing.DataZeroedByPolicy => "z-policy",
        GrowthZeroing.DataZeroedByTde => "z-tde",
        GrowthZeroing.DataNotZeroed => "z-ok",
        GrowthZeroing.LogZeroed => "z-log",
        GrowthZeroing.LogNotZeroed => "z-lognz",
        GrowthZeroing.IfiUnknown => "z-unk",
        _ => "z-na",
    };
}
