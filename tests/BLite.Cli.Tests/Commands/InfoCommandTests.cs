using System.Globalization;

namespace BLite.Cli.Tests.Commands;

public class InfoCommandTests
{
    [Fact]
    public void Info_reports_format_page_size_file_sizes_and_an_empty_wal()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        var result = BliteProcess.Run("info", path);

        CliAssert.Succeeded(result);
        var fields = result.StdoutLines.Select(line => line.Split("  ", 2, StringSplitOptions.TrimEntries)).ToDictionary(parts => parts[0], parts => parts[1].Trim());
        Assert.Equal(Path.GetFullPath(path), fields["file"]);
        Assert.Equal("BLite database, format version 2", fields["format"]);
        Assert.Equal("8192 bytes", fields["page size"]);
        Assert.Equal(new FileInfo(path).Length.ToString("N0", CultureInfo.InvariantCulture) + " bytes", fields["file size"]);
        Assert.Equal(new FileInfo(path + "-wal").Length.ToString("N0", CultureInfo.InvariantCulture) + " bytes", fields["wal size"]);
        Assert.Equal("empty: every commit is in the database file", fields["wal state"]);
        Assert.Equal($"{new FileInfo(path).Length / 8192} (0 free) as of the last checkpoint", fields["pages"]);
    }

    [Fact]
    public void Info_does_not_open_the_database_so_the_files_are_unchanged()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);
        var before = File.ReadAllBytes(path);
        var walBefore = File.ReadAllBytes(path + "-wal");

        CliAssert.Succeeded(BliteProcess.Run("info", path));

        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.Equal(walBefore, File.ReadAllBytes(path + "-wal"));
    }
}
