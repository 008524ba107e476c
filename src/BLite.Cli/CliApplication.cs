using System.Reflection;
using BLite.Bson;
using BLite.Cli.Arguments;
using BLite.Cli.Commands;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core;

namespace BLite.Cli;

/// <summary>
/// Dispatches to a command and turns every failure into one line on standard error and an exit
/// code (<see cref="ExitCodes"/>). No exception escapes, so users never see a stack trace.
/// </summary>
internal static class CliApplication
{
    public static IReadOnlyList<Command> Commands { get; } =
    [
        new InfoCommand(),
        new CollectionsCommand(),
        new IndexesCommand(),
        new StatsCommand(),
        new FindCommand(),
        new ExportCommand(),
        new ImportCommand(),
        new CheckCommand(),
        new CheckpointCommand(),
        new CompactCommand(),
        new UpgradeCommand(),
        new MigrateCommand(),
        new WatchCommand(),
        new BackupCommand(),
        new RekeyCommand(),
        new StudioCommand(),
    ];

    public static int Run(string[] args, CommandContext context)
    {
        string? commandName = null;
        try
        {
            if (args.Length == 0)
            {
                throw new UsageException("no command given; run 'blite --help' for the list of commands.");
            }

            switch (args[0])
            {
                case "-h" or "--help":
                    HelpWriter.WriteOverview(context.Output, Commands);
                    return ExitCodes.Ok;
                case "help":
                    return ShowHelp(args, context);
                case "--version":
                    context.Output.WriteLine("blite " + Version);
                    return ExitCodes.Ok;
            }

            var command = Find(args[0])
                ?? throw new UsageException(args[0].StartsWith('-')
                    ? $"unknown option '{args[0]}'; a command comes first (run 'blite --help')."
                    : $"unknown command '{args[0]}'; run 'blite --help' for the list of commands.");
            commandName = command.Name;
            var parsed = ArgumentParser.Parse(command.Name, args[1..], command.Arguments, command.AllOptions);
            if (parsed.HelpRequested)
            {
                HelpWriter.WriteCommand(context.Output, command);
                return ExitCodes.Ok;
            }

            DatabaseKeys.Use(parsed, context);

            return command.Execute(parsed, context);
        }
        catch (UsageException exception)
        {
            var command = exception.Command ?? commandName;
            var message = command is null ? exception.Message : $"{exception.Message.TrimEnd('.')} (see 'blite {command} --help')";
            return Fail(context, message, ExitCodes.Usage);
        }
        catch (CommandException exception)
        {
            return Fail(context, exception.Message, exception.ExitCode);
        }
        catch (BLiteCorruptionException exception)
        {
            return Fail(context, "damage found: " + exception.Message, ExitCodes.Damage);
        }
        catch (Exception exception) when (exception is BLiteException or IOException
            or UnauthorizedAccessException or ArgumentException or InvalidOperationException or FormatException)
        {
            return Fail(context, exception.Message, ExitCodes.Error);
        }
        catch (Exception exception)
        {
            return Fail(context, $"unexpected {exception.GetType().Name}: {exception.Message}", ExitCodes.Error);
        }
        finally
        {
            context.Output.Flush();
        }
    }

    private static string Version =>
        typeof(CliApplication).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    private static int ShowHelp(string[] args, CommandContext context)
    {
        if (args.Length == 1)
        {
            HelpWriter.WriteOverview(context.Output, Commands);
            return ExitCodes.Ok;
        }

        var command = Find(args[1]) ?? throw new UsageException($"unknown command '{args[1]}'; run 'blite --help' for the list of commands.");
        HelpWriter.WriteCommand(context.Output, command);
        return ExitCodes.Ok;
    }

    private static Command? Find(string name)
    {
        foreach (var command in Commands)
        {
            if (command.Name == name)
            {
                return command;
            }
        }

        return null;
    }

    /// <summary>One line, always: messages from lower layers may span lines, which would read as several errors.</summary>
    private static int Fail(CommandContext context, string message, int exitCode)
    {
        var line = message.ReplaceLineEndings(" ").Trim();
        context.Error.WriteLine("blite: " + line);
        context.Error.Flush();
        return exitCode;
    }
}
