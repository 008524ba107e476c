using System.Globalization;
using BLite.Cli.Arguments;
using BLite.Cli.Database;

namespace BLite.Cli.Commands;

/// <summary>Reports the file's format and sizes and the WAL's state, read from disk without opening (and so without recovering) the database.</summary>
internal sealed class InfoCommand : Command
{
    public override string Name => "info";

    public override string Summary => "Show the file format, page size, file and WAL sizes and the WAL state.";

    public override string Details =>
        """
        The files are read as they are on disk: the database is not opened, so a WAL left by a
        process that stopped without closing the database is reported, not applied. Page counts
        are those of the last checkpoint.

        Example:
          blite info shop.blite
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var info = DatabaseFileInspector.Inspect(arguments.Positional(0)!);
        var table = new Output.TableWriter("file", info.Path);
        if (info.Encryption is { } encryption)
        {
            table.AddRow("format", $"encrypted BLite database, encryption format {info.FormatVersion}");
            table.AddRow("encryption", encryption);
            table.AddRow("page size", $"{info.PageSize} bytes");
            table.AddRow("pages", $"{info.PageCount} in the file (free pages are known only with the key)");
        }
        else
        {
            table.AddRow("format", $"BLite database, format version {info.FormatVersion}");
            table.AddRow("page size", $"{info.PageSize} bytes");
            table.AddRow("pages", $"{info.PageCount} ({info.FreePageCount} free) as of the last checkpoint");
        }

        table.AddRow("file size", Bytes(info.FileLength));
        table.AddRow("wal file", info.Wal.Path);
        table.AddRow("wal size", Bytes(info.Wal.Length));
        table.AddRow("wal state", info.Wal.Describe());
        table.WriteTo(context.Output);
        return ExitCodes.Ok;
    }

    internal static string Bytes(long bytes) => bytes.ToString("N0", CultureInfo.InvariantCulture) + " bytes";
}
