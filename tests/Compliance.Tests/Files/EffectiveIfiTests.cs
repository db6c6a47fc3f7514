using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class EffectiveIfiTests
{
    [Theory]
    [InlineData(IfiState.Enabled, false, FileIfi.On, FileIfiReason.InstanceIfiOn)]
    [InlineData(IfiState.Disabled, false, FileIfi.Off, FileIfiReason.InstanceIfiOff)]
    [InlineData(IfiState.Unknown, false, FileIfi.Unknown, FileIfiReason.InstanceIfiUnknown)]
    [InlineData(IfiState.Enabled, true, FileIfi.Off, FileIfiReason.TdeEncrypted)]
    [InlineData(IfiState.Disabled, true, FileIfi.Off, FileIfiReason.TdeEncrypted)]
    [InlineData(IfiState.Unknown, true, FileIfi.Off, FileIfiReason.TdeEncrypted)]
    public void Data_file_gets_IFI_only_with_instance_IFI_and_no_TDE(IfiState instance, bool tde, FileIfi expected,
        FileIfiReason reason)
    {
        var decision = EffectiveIfi.Decide(instance, 15, false, FileType.Rows, tde);

        Assert.Equal(expected, decision.Ifi);
        Assert.Equal(reason, decision.Reason);
    }

    [Theory]
    [InlineData(0, false)]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(3, true)]
    [InlineData(4, true)]
    [InlineData(5, true)]
    [InlineData(6, true)]
    public void Encryption_states_2_to_6_prevent_data_file_IFI(int encryptionState, bool prevents)
    {
        var facts = Set(Instance(IfiState.Enabled), [DataFile(databaseId: 9, database: "Payroll")],
            encryption: [new DatabaseEncryptionFacts(9, encryptionState)]);

        var result = EffectiveIfi.ForFiles(facts).Single();

        Assert.Equal(prevents ? FileIfi.Off : FileIfi.On, result.Decision.Ifi);
    }

    [Fact]
    public void Encryption_of_another_database_does_not_matter()
    {
        var facts = Set(Instance(IfiState.Enabled), [DataFile(databaseId: 5)], encryption: [new DatabaseEncryptionFacts(6, 3)]);

        Assert.Equal(FileIfi.On, EffectiveIfi.ForFiles(facts).Single().Decision.Ifi);
    }

    public static TheoryData<int, long?, FileIfi, FileIfiReason> LogCases => new()
    {
        // SQL Server 2019 zeroes every log growth, even 64 MB.
        { 15, PagesOfMB(64), FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
        // SQL Server 2022 and 2025 skip zeroing for log autogrowth of 64 MB or less...
        { 16, PagesOfMB(64), FileIfi.On, FileIfiReason.SmallLogAutogrowthOn2022 },
        { 16, PagesOfMB(1), FileIfi.On, FileIfiReason.SmallLogAutogrowthOn2022 },
        { 17, PagesOfMB(64), FileIfi.On, FileIfiReason.SmallLogAutogrowthOn2022 },
        // ...but not one page more,
        { 16, PagesOfMB(64) + 1, FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
        { 16, PagesOfMB(512), FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
        // and not for the file as a whole (restore, create).
        { 16, null, FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
        { 11, PagesOfMB(8), FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
        { 0, PagesOfMB(8), FileIfi.Unknown, FileIfiReason.VersionUnknownForSmallLogGrowth },
        { 0, PagesOfMB(128), FileIfi.Off, FileIfiReason.LogAlwaysZeroed },
    };

    [Theory]
    [MemberData(nameof(LogCases))]
    public void Log_is_zeroed_except_small_autogrowth_on_2022_and_later(int major, long? growthPages, FileIfi expected,
        FileIfiReason reason)
    {
        var decision = EffectiveIfi.Decide(IfiState.Enabled, major, false, FileType.Log, false, growthPages);

        Assert.Equal(expected, decision.Ifi);
        Assert.Equal(reason, decision.Reason);
    }

    [Theory]
    [InlineData(IfiState.Disabled, true)]
    [InlineData(IfiState.Unknown, true)]
    [InlineData(IfiState.Disabled, false)]
    public void Small_log_autogrowth_on_2022_needs_neither_the_privilege_nor_an_unencrypted_database(IfiState instance,
        bool tde) =>
        Assert.Equal(FileIfi.On, EffectiveIfi.Decide(instance, 16, false, FileType.Log, tde, PagesOfMB(64)).Ifi);

    [Theory]
    [InlineData(FileType.Rows)]
    [InlineData(FileType.Log)]
    public void Azure_platforms_are_not_applicable_per_file(FileType type) =>
        Assert.Equal(FileIfi.NotApplicable, EffectiveIfi.Decide(IfiState.Disabled, 16, true, type, false).Ifi);

    [Theory]
    [InlineData(FileType.Filestream)]
    [InlineData(FileType.Fulltext)]
    public void Filestream_and_fulltext_are_not_zeroed_data_files(FileType type) =>
        Assert.Equal(FileIfiReason.NotZeroedFileType, EffectiveIfi.Decide(IfiState.Disabled, 15, false, type, false).Reason);

    [Fact]
    public void Each_file_of_an_instance_gets_its_own_reason()
    {
        var facts = Set(Instance(IfiState.Enabled, major: 16),
            [DataFile(5, "Sales"), LogFile(5, "Sales"), DataFile(6, "Payroll", "Payroll", path: @"E:\Data\Payroll.mdf")],
            encryption: [new DatabaseEncryptionFacts(6, 3)]);

        var reasons = EffectiveIfi.ForFiles(facts).Select(r => (r.File.LogicalName, r.Decision.Reason)).ToList();

        Assert.Equal(
        [
            ("Sales", FileIfiReason.InstanceIfiOn),
            ("Sales_log", FileIfiReason.LogAlwaysZeroed),
            ("Payroll", FileIfiReason.TdeEncrypted),
        ], reasons);
    }
}
