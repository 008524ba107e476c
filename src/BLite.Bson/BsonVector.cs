using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace BLite.Bson;

/// <summary>
/// The payload of a binary value of subtype <see cref="BsonBinarySubtype.Vector"/> (0x09), in the
/// layout MongoDB defines, so vectors exported to standard BSON stay vectors:
/// <code>
///  0  u8   dtype: 0x27 float32 (0x03 int8 and 0x10 packed bits exist; BLite reads and writes float32)
///  1  u8   padding: unused bits in the last byte, always 0 for float32
///  2  f32  the components, little-endian, 4 bytes each
/// </code>
/// </summary>
public static class BsonVector
{
    /// <summary>The dtype byte of a float32 vector.</summary>
    public const byte Float32DType = 0x27;

    /// <summary>Bytes before the components.</summary>
    public const int HeaderSize = 2;

    /// <summary>The payload size of a float32 vector of <paramref name="dimensions"/> components.</summary>
    public static int Float32PayloadSize(int dimensions) => checked(HeaderSize + (dimensions * sizeof(float)));

    /// <summary>Writes the float32 payload of <paramref name="vector"/>; <paramref name="destination"/> must be <see cref="Float32PayloadSize"/> long.</summary>
    public static void WriteFloat32(Span<byte> destination, ReadOnlySpan<float> vector)
    {
        destination[0] = Float32DType;
        destination[1] = 0;
        var components = destination.Slice(HeaderSize, vector.Length * sizeof(float));
        if (BitConverter.IsLittleEndian)
        {
            MemoryMarshal.AsBytes(vector).CopyTo(components);
            return;
        }

        for (var i = 0; i < vector.Length; i++)
        {
            BinaryPrimitives.WriteSingleLittleEndian(components[(i * sizeof(float))..], vector[i]);
        }
    }

    /// <summary>The number of components of a float32 vector payload, or -1 when the payload is not one.</summary>
    public static int GetFloat32Dimensions(ReadOnlySpan<byte> payload)
    {
        if (payload.Length < HeaderSize || payload[0] != Float32DType || payload[1] != 0 || (payload.Length - HeaderSize) % sizeof(float) != 0)
        {
            return -1;
        }

        return (payload.Length - HeaderSize) / sizeof(float);
    }

    /// <summary>Copies the components of a float32 payload into <paramref name="destination"/> (exactly as many as it holds).</summary>
    public static void ReadFloat32(ReadOnlySpan<byte> payload, Span<float> destination)
    {
        var dimensions = GetFloat32Dimensions(payload);
        if (dimensions < 0)
        {
            throw new BsonFormatException(DescribeInvalid(payload), 0);
        }

        if (destination.Length != dimensions)
        {
            throw new ArgumentException($"The vector has {dimensions} components; the destination holds {destination.Length}.", nameof(destination));
        }

        var components = payload[HeaderSize..];
        if (BitConverter.IsLittleEndian)
        {
            components.CopyTo(MemoryMarshal.AsBytes(destination));
            return;
        }

        for (var i = 0; i < dimensions; i++)
        {
            destination[i] = BinaryPrimitives.ReadSingleLittleEndian(components[(i * sizeof(float))..]);
        }
    }

    /// <summary>The components of a float32 payload as a new array.</summary>
    public static float[] ToFloat32Array(ReadOnlySpan<byte> payload)
    {
        var dimensions = GetFloat32Dimensions(payload);
        if (dimensions < 0)
        {
            throw new BsonFormatException(DescribeInvalid(payload), 0);
        }

        var vector = new float[dimensions];
        ReadFloat32(payload, vector);
        return vector;
    }

    /// <summary>A binary value of subtype Vector holding <paramref name="vector"/> as float32.</summary>
    public static BsonValue FromFloat32(ReadOnlySpan<float> vector)
    {
        var payload = new byte[Float32PayloadSize(vector.Length)];
        WriteFloat32(payload, vector);
        return BsonValue.FromBinary(payload, BsonBinarySubtype.Vector);
    }

    private static string DescribeInvalid(ReadOnlySpan<byte> payload) =>
        payload.Length < HeaderSize
            ? $"A vector payload needs at least {HeaderSize} bytes; it has {payload.Length}."
            : payload[0] != Float32DType
                ? $"Vector dtype 0x{payload[0]:X2} is not float32 (0x{Float32DType:X2}); only float32 vectors can be read as float[]."
                : $"A float32 vector payload has padding {payload[1]} and {payload.Length - HeaderSize} component bytes; it needs padding 0 and a multiple of 4.";
}
