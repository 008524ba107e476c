using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests.Models;

/// <summary>Every scalar of the Bson type mapping, with public setters.</summary>
[BLiteDocument]
public sealed class ScalarDocument
{
    public ObjectId Id { get; set; }
    public string Text { get; set; } = "";
    public bool Flag { get; set; }
    public double Double { get; set; }
    public float Single { get; set; }
    public int Int32 { get; set; }
    public short Int16 { get; set; }
    public sbyte SByte { get; set; }
    public byte Byte { get; set; }
    public ushort UInt16 { get; set; }
    public char Char { get; set; }
    public long Int64 { get; set; }
    public uint UInt32 { get; set; }
    public ulong UInt64 { get; set; }
    public decimal Decimal { get; set; }
    public Guid Guid { get; set; }
    public ObjectId Reference { get; set; }
    public DateTime LocalTime { get; set; }
    public DateTime UtcTime { get; set; }
    public DateTime UnspecifiedTime { get; set; }
    public DateTimeOffset Offset { get; set; }
    public TimeSpan Duration { get; set; }
    public DateOnly Day { get; set; }
    public TimeOnly Clock { get; set; }
    public byte[] Payload { get; set; } = [];
}
