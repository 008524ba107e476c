using BLite.Cli.Commands;

namespace BLite.Cli.Output;

/// <summary>Renders <c>blite --help</c> and <c>blite COMMAND --help</c>.</summary>
internal static class HelpWriter
{
    public static void WriteOverview(TextWriter output, IReadOnlyList<Command> commands)
    {
        output.WriteLine("blite - inspect, query, import, export, check and compact BLite databases");
        output.WriteLine();
        output.WriteLine("Usage: blite <command> <database> [arguments] [options]");
        output.WriteLine("       blite <command> --help");
        output.WriteLine();
        output.WriteLine("Commands:");
        var width = 0;
        foreach (var command in commands)
        {
            width = Math.Max(width, command.Name.Length);
        }

        foreach (var command in commands)
        {
            output.WriteLine($"  {command.Name.PadRight(width)}  {command.Summary}");
        }

        output.WriteLine();
        output.WriteLine("Options:");
        output.WriteLine("  -h, --help  Show help (also after any command).");
        output.WriteLine("  --version   Show the version of blite.");
        output.WriteLine("  --key-file  Key of an encrypted database, for every command (or set BLITE_KEY or BLITE_PASSWORD).");
        output.WriteLine();
        output.WriteLine("Exit codes:");
        output.WriteLine($"  {ExitCodes.Ok}  success");
        output.WriteLine($"  {ExitCodes.Usage}  usage error: unknown command or option, missing or malformed argument (including a bad filter or sort)");
        output.WriteLine($"  {ExitCodes.Damage}  damage found: 'check' found problems, or a command met a corrupt page");
        output.WriteLine($"  {ExitCodes.Error}  other error: missing or non-BLite file, database in use, bad input data, I/O failure");
        output.WriteLine();
        output.WriteLine("Errors are reported as one line on standard error; results go to standard output.");
    }

    public static void WriteCommand(TextWriter output, Command command)
    {
        var synopsis = "blite " + command.Name;
        foreach (var argument in command.Arguments)
        {
            synopsis += " " + argument.Synopsis;
        }

        output.WriteLine($"Usage: {synopsis}{(command.AllOptions.Count > 0 ? " [options]" : "")}");
        output.WriteLine();
        output.WriteLine(command.Summary);
        if (command.Arguments.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("Arguments:");
            var width = 0;
            foreach (var argument in command.Arguments)
            {
                width = Math.Max(width, argument.Name.Length);
            }

            foreach (var argument in command.Arguments)
            {
                output.WriteLine($"  {argument.Name.PadRight(width)}  {argument.Description}");
            }
        }

        output.WriteLine();
        output.WriteLine("Options:");
        var optionWidth = "-h, --help".Length;
        foreach (var option in command.AllOptions)
        {
            optionWidth = Math.Max(optionWidth, option.Synopsis.Length);
        }

        foreach (var option in command.AllOptions)
        {
            output.WriteLine($"  {option.Synopsis.PadRight(optionWidth)}  {option.Description}");
        }

        output.WriteLine($"  {"-h, --help".PadRight(optionWidth)}  Show this help.");
        if (command.Details is { } details)
        {
            output.WriteLine();
            output.WriteLine(details.TrimEnd());
        }
    }
}
