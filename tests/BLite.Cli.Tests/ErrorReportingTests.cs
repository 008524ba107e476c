using BLite.Core;

namespace BLite.Cli.Tests;

/// <summary>Every kind of failure is one line on stderr, a non-zero exit code and never a stack trace.</summary>
public class ErrorReportingTests
{
    public static TheoryData<string> DatabaseCommands => new() { "info", "collections", "indexes", "stats", "check", "checkpoint", "compact" };

    [Theory]
    [MemberData(nameof(DatabaseCommands))]
    public void A_missing_file_is_one_line_and_exit_three_and_is_not_created(string command)
    {
        using var directory = new TempDirectory();
        var path = directory.File("missing.blite");

        var result = BliteProcess.Run(command, path);

        CliAssert.FailedWithOneLine(result, 3, $"database file '{path}' does not exist");
        Assert.False(File.Exists(path));
        Assert.False(File.Exists(path + "-wal"));
    }

    [Theory]
    [MemberData(nameof(DatabaseCommands))]
    public void A_wal_whose_database_file_was_deleted_is_refused_and_kept(string command)
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 2);
        File.Delete(path);
        var wal = File.ReadAllBytes(path + "-wal");
        Assert.NotEmpty(wal);

        var result = BliteProcess.Run(command, path);

        CliAssert.FailedWithOneLine(result, 3, "the WAL of a database whose main file is missing");
        Assert.False(File.Exists(path));
        Assert.Equal(wal, File.ReadAllBytes(path + "-wal"));
    }

    [Theory]
    [MemberData(nameof(DatabaseCommands))]
    public void A_file_that_is_not_a_blite_database_is_one_line_and_exit_three_and_stays_unchanged(string command)
    {
        using var directory = new TempDirectory();
        var path = directory.File("notes.txt");
        File.WriteAllText(path, "these are not the pages you are looking for\n");

        var result = BliteProcess.Run(command, path);

        CliAssert.FailedWithOneLine(result, 3, "is not a BLite database");
        Assert.Equal("these are not the pages you are looking for\n", File.ReadAllText(path));
        Assert.False(File.Exists(path + "-wal"));
    }

    [Fact]
    public void An_empty_file_is_not_taken_for_a_new_database()
    {
        using var directory = new TempDirectory();
        var path = directory.File("empty.blite");
        File.WriteAllBytes(path, []);

        var result = BliteProcess.Run("collections", path);

        CliAssert.FailedWithOneLine(result, 3, "is empty; it is not a BLite database");
        Assert.Equal(0, new FileInfo(path).Length);
    }

    [Fact]
    public void An_unknown_command_is_a_usage_error()
    {
        var result = BliteProcess.Run("frobnicate", "x.blite");

        CliAssert.FailedWithOneLine(result, 1, "unknown command 'frobnicate'");
    }

    [Fact]
    public void An_unknown_option_is_a_usage_error()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 2);

        var result = BliteProcess.Run("find", path, "orders", "--colour", "blue");

        CliAssert.FailedWithOneLine(result, 1, "unknown option '--colour' for 'find'");
    }

    [Fact]
    public void A_missing_argument_is_a_usage_error()
    {
        var result = BliteProcess.Run("find", "shop.blite");

        CliAssert.FailedWithOneLine(result, 1, "'find' needs <collection>");
    }

    [Fact]
    public void An_extra_argument_is_a_usage_error()
    {
        var result = BliteProcess.Run("info", "a.blite", "b.blite");

        CliAssert.FailedWithOneLine(result, 1, "unexpected 'b.blite'");
    }

    [Fact]
    public void An_option_without_its_value_is_a_usage_error()
    {
        var result = BliteProcess.Run("find", "shop.blite", "orders", "--limit");

        CliAssert.FailedWithOneLine(result, 1, "option '--limit' needs a value");
    }

    [Fact]
    public void No_command_is_a_usage_error()
    {
        var result = BliteProcess.Run();

        CliAssert.FailedWithOneLine(result, 1, "no command given");
    }

    [Fact]
    public void A_database_in_use_by_another_engine_is_one_line_for_a_command_that_writes()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 2);
        using var open = Core.DocumentDatabase.Open(path);

        // Inspection commands open read-only and succeed (ReadOnlyInspectionTests); checkpoint writes.
        var result = BliteProcess.Run("checkpoint", path);

        Assert.True(result.ExitCode == 3, result.ToString());
        Assert.Single(result.Stderr.TrimEnd('\n').Split('\n'));
        Assert.StartsWith("blite: ", result.Stderr);
        Assert.DoesNotContain("   at ", result.Stderr);
    }
}
