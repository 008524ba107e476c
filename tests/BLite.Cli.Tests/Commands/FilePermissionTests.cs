using System.Runtime.Versioning;
using BLite.Bson;

namespace BLite.Cli.Tests.Commands;

/// <summary>
/// Databases the user may not write, or may not read at all: inspection works on the first, every
/// command refuses the second naming the path, and neither file changes.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class FilePermissionTests
{
    private const UnixFileMode ReadOnlyFile = UnixFileMode.UserRead | UnixFileMode.GroupRead | UnixFileMode.OtherRead;
    private const UnixFileMode ReadOnlyFolder = ReadOnlyFile | UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute;
    private const UnixFileMode OwnerOnlyFile = UnixFileMode.UserRead | UnixFileMode.UserWrite;

    [Fact]
    public void Inspection_works_on_a_database_the_user_can_only_read_and_writing_is_refused()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 6);
        var before = File.ReadAllBytes(path);
        var logBefore = LogBytes(path);
        File.SetUnixFileMode(path, ReadOnlyFile);
        File.SetUnixFileMode(directory.Path, ReadOnlyFolder);
        try
        {
            foreach (var command in new[] { "info", "check", "collections", "indexes", "stats" })
            {
                CliAssert.Succeeded(UnprivilegedBlite.Run(command, path));
            }

            var exported = UnprivilegedBlite.Run("export", path, "orders");
            CliAssert.Succeeded(exported);
            Assert.Equal(Enumerable.Range(1, 6), exported.StdoutLines.Select(line => BsonDocument.Parse(line)["_id"].AsInt32).Order());

            // The user really cannot write here: the one command that must open for writing is refused.
            var checkpoint = UnprivilegedBlite.Run("checkpoint", path);
            CliAssert.FailedWithOneLine(checkpoint, 3, path);
            Assert.Contains("access denied", checkpoint.Stderr, StringComparison.OrdinalIgnoreCase);
        }
        finally
        {
            File.SetUnixFileMode(directory.Path, ReadOnlyFolder | UnixFileMode.UserWrite);
            File.SetUnixFileMode(path, OwnerOnlyFile);
        }

        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.Equal(logBefore, LogBytes(path));
    }

    [Theory]
    [InlineData("info")]
    [InlineData("check")]
    [InlineData("find")]
    [InlineData("checkpoint")]
    public void A_database_the_user_cannot_read_is_refused_naming_the_path(string command)
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);
        var before = File.ReadAllBytes(path);
        File.SetUnixFileMode(path, Environment.IsPrivilegedProcess ? OwnerOnlyFile : UnixFileMode.None);
        try
        {
            var result = command == "find" ? UnprivilegedBlite.Run(command, path, "orders", "{}") : UnprivilegedBlite.Run(command, path);

            CliAssert.FailedWithOneLine(result, 3, path);
            Assert.Contains("access denied", result.Stderr, StringComparison.OrdinalIgnoreCase);
        }
        finally
        {
            File.SetUnixFileMode(path, OwnerOnlyFile);
        }

        Assert.Equal(before, File.ReadAllBytes(path));
    }

    private static byte[]? LogBytes(string path) => File.Exists(path + "-wal") ? File.ReadAllBytes(path + "-wal") : null;
}
